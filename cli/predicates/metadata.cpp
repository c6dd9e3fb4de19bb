#include "predicates/metadata.hpp"

#include "expr/eval.hpp"
#include "predicates/reference_file.hpp"
#include "system/fstype.hpp"
#include "values/comparison.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <string>

namespace ufind {
namespace {

class SizeTest final : public Primary {
public:
    SizeTest(Comparison comparison, std::uint64_t unit) : comparison_(comparison), unit_(unit) {}
    bool evaluate(EvalContext& context) override {
        const struct statx* buf = context.stat();
        return buf && comparison_.matches(size_in_units(buf->stx_size, unit_));
    }
    unsigned stat_mask() const override { return STATX_SIZE; }

private:
    Comparison comparison_;
    std::uint64_t unit_;
};

// A regular file of size 0, or a directory with nothing in it.
class EmptyTest final : public Primary {
public:
    bool evaluate(EvalContext& context) override {
        const struct statx* buf = context.stat();
        if (!buf) {
            return false;
        }
        if (S_ISREG(buf->stx_mode)) {
            return buf->stx_size == 0;
        }
        if (!S_ISDIR(buf->stx_mode)) {
            return false;
        }
        // TODO: ask the walk whether the directory had entries once libioq
        // says so; until then a second open of it (cold: one more openat
        // and getdents64 per directory tested).
        int dirfd = AT_FDCWD;
        const char* name = nullptr;
        int error = context.locate(dirfd, name);
        int fd = error ? -1 : ::openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        DIR* dir = fd < 0 ? nullptr : ::fdopendir(fd);
        if (!dir) {
            error = error ? error : errno;
            if (fd >= 0) {
                ::close(fd);
            }
            report_path_error(context.entry->path(), error);
            return false;
        }
        bool empty = true;
        while (const struct dirent* dirent = ::readdir(dir)) {
            const char* name = dirent->d_name;
            if (!(name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0')))) {
                empty = false;
                break;
            }
        }
        ::closedir(dir);
        return empty;
    }
    unsigned stat_mask() const override { return STATX_TYPE | STATX_SIZE; }
};

// -links and -inum: one statx field against "+N", "-N" or "N".
template <typename Field>
class FieldTest final : public Primary {
public:
    FieldTest(Comparison comparison, unsigned mask, Field field)
        : comparison_(comparison), mask_(mask), field_(field) {}
    bool evaluate(EvalContext& context) override {
        const struct statx* buf = context.stat();
        return buf && comparison_.matches(field_(*buf));
    }
    unsigned stat_mask() const override { return mask_; }

private:
    Comparison comparison_;
    unsigned mask_;
    Field field_;
};

template <typename Field>
std::unique_ptr<Primary> field_test(ParseContext& context, unsigned mask, Field field) {
    const std::string& argument = context.take();
    std::optional<Comparison> comparison = parse_comparison(argument);
    if (!comparison) {
        context.invalid(argument);
    }
    return std::make_unique<FieldTest<Field>>(*comparison, mask, field);
}

class SameFileTest final : public Primary {
public:
    SameFileTest(std::uint64_t device, std::uint64_t inode) : device_(device), inode_(inode) {}
    bool evaluate(EvalContext& context) override {
        const struct statx* buf = context.stat();
        return buf && buf->stx_ino == inode_ &&
               makedev(buf->stx_dev_major, buf->stx_dev_minor) == device_;
    }
    unsigned stat_mask() const override { return STATX_INO; }

private:
    std::uint64_t device_;
    std::uint64_t inode_;
};

class AccessTest final : public Primary {
public:
    explicit AccessTest(int mode) : mode_(mode) {}
    bool evaluate(EvalContext& context) override {
        // The path, as find does: the kernel applies the real uid's rights
        // (root may read anything, but executes only what has an x bit).
        int dirfd = AT_FDCWD;
        const char* name = nullptr;
        return context.locate(dirfd, name) == 0 && ::faccessat(dirfd, name, mode_, 0) == 0;
    }

private:
    int mode_;
};

class FsTypeTest final : public Primary {
public:
    explicit FsTypeTest(std::string type) : type_(std::move(type)) {}
    bool evaluate(EvalContext& context) override {
        const struct statx* buf = context.stat();
        return buf && filesystem_type(buf->stx_dev_major, buf->stx_dev_minor) == type_;
    }
    unsigned stat_mask() const override { return STATX_TYPE; }

private:
    std::string type_;
};

} // namespace

std::uint64_t size_unit(char letter) {
    switch (letter) {
    case 'c': return 1;
    case 'w': return 2;
    case '\0':
    case 'b': return 512;
    case 'k': return 1024;
    case 'M': return 1024 * 1024;
    case 'G': return 1024 * 1024 * 1024;
    default: return 0;
    }
}

std::unique_ptr<Primary> parse_size(ParseContext& context) {
    const std::string& argument = context.take();
    if (argument.empty()) {
        fail_usage("invalid null argument to -size");
    }
    // find names the unit letter when that is what is wrong, the whole
    // argument otherwise.
    char last = argument.back();
    if (!(last >= '0' && last <= '9') && size_unit(last) == 0) {
        fail_usage(std::string("invalid -size type `") + last + "'");
    }
    char suffix = '\0';
    std::optional<Comparison> comparison = parse_comparison(argument, &suffix);
    // Any count find can hold, however many bytes that is: sizes are
    // compared in the argument's units, never multiplied out.
    if (!comparison) {
        fail_usage("Invalid argument `" + argument + "' to -size");
    }
    return std::make_unique<SizeTest>(*comparison, size_unit(suffix));
}

std::unique_ptr<Primary> parse_empty(ParseContext&) { return std::make_unique<EmptyTest>(); }

std::unique_ptr<Primary> parse_links(ParseContext& context) {
    return field_test(context, STATX_NLINK,
                      [](const struct statx& buf) -> std::uint64_t { return buf.stx_nlink; });
}

std::unique_ptr<Primary> parse_inum(ParseContext& context) {
    return field_test(context, STATX_INO,
                      [](const struct statx& buf) -> std::uint64_t { return buf.stx_ino; });
}

std::unique_ptr<Primary> parse_samefile(ParseContext& context) {
    struct statx buf = stat_reference(context, context.take(), STATX_INO);
    return std::make_unique<SameFileTest>(makedev(buf.stx_dev_major, buf.stx_dev_minor),
                                          buf.stx_ino);
}

std::unique_ptr<Primary> parse_access(ParseContext& context) {
    const std::string& name = context.name();
    int mode = name == "-readable" ? R_OK : name == "-writable" ? W_OK : X_OK;
    return std::make_unique<AccessTest>(mode);
}

std::unique_ptr<Primary> parse_fstype(ParseContext& context) {
    return std::make_unique<FsTypeTest>(context.take());
}

std::unique_ptr<Primary> parse_context_test(ParseContext& context) {
    context.take();
    // Like a GNU find built with SELinux support on a kernel without it.
    fail_usage("invalid predicate -context: SELinux is not enabled.");
}

} // namespace ufind
