#include "predicates/inode_flags.hpp"

#include "expr/eval.hpp"
#include "system/diagnostics.hpp"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>

namespace ufind {
namespace {

struct FlagLetter {
    char letter;
    unsigned long flag;
};
// lsattr's letters (e2fsprogs' lib/e2p/pf.c).
constexpr FlagLetter flag_letters[] = {
    {'s', FS_SECRM_FL},       {'u', FS_UNRM_FL},         {'S', FS_SYNC_FL},
    {'D', FS_DIRSYNC_FL},     {'i', FS_IMMUTABLE_FL},    {'a', FS_APPEND_FL},
    {'d', FS_NODUMP_FL},      {'A', FS_NOATIME_FL},      {'c', FS_COMPR_FL},
    {'E', FS_ENCRYPT_FL},     {'j', FS_JOURNAL_DATA_FL}, {'I', FS_INDEX_FL},
    {'t', FS_NOTAIL_FL},      {'T', FS_TOPDIR_FL},       {'e', FS_EXTENT_FL},
    {'C', FS_NOCOW_FL},       {'x', FS_DAX_FL},          {'F', FS_CASEFOLD_FL},
    {'N', FS_INLINE_DATA_FL}, {'P', FS_PROJINHERIT_FL},  {'V', FS_VERITY_FL},
};

enum class FlagMatch : unsigned char { exactly, all_of, any_of };

class InodeFlagsTest final : public Primary {
public:
    InodeFlagsTest(FlagMatch match, unsigned long flags) : match_(match), flags_(flags) {}

    bool evaluate(EvalContext& context) override {
        const struct statx* buf = context.stat();
        if (!buf || (!S_ISREG(buf->stx_mode) && !S_ISDIR(buf->stx_mode))) {
            return false;
        }
        int dirfd = AT_FDCWD;
        const char* name = nullptr;
        if (int error = context.locate(dirfd, name)) {
            report_path_error(context.entry->path(), error);
            return false;
        }
        int open_flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY;
        if (!context.follows_links()) {
            open_flags |= O_NOFOLLOW;
        }
        int fd = ::openat(dirfd, name, open_flags);
        if (fd < 0) {
            report_path_error(context.entry->path(), errno);
            return false;
        }
        int flags = 0;  // the ioctl writes an int, whatever its name says
        int result = ::ioctl(fd, FS_IOC_GETFLAGS, &flags);
        int error = errno;
        ::close(fd);
        if (result < 0) {
            if (error != ENOTTY && error != ENOTSUP) {
                report_path_error(context.entry->path(), error);
            }
            return false;
        }
        unsigned long have = static_cast<unsigned int>(flags);
        switch (match_) {
        case FlagMatch::all_of: return (have & flags_) == flags_;
        case FlagMatch::any_of: return (have & flags_) != 0;
        case FlagMatch::exactly: break;
        }
        return have == flags_;
    }
    unsigned stat_mask() const override { return STATX_TYPE | STATX_MODE; }

private:
    FlagMatch match_;
    unsigned long flags_;
};

} // namespace

std::unique_ptr<Primary> parse_inode_flags(ParseContext& context) {
    const std::string& argument = context.take();
    std::string_view letters = argument;
    FlagMatch match = FlagMatch::exactly;
    if (letters.starts_with('-')) {
        match = FlagMatch::all_of;
        letters.remove_prefix(1);
    } else if (letters.starts_with('+')) {
        match = FlagMatch::any_of;
        letters.remove_prefix(1);
    }
    unsigned long flags = 0;
    for (char letter : letters) {
        bool known = false;
        for (const FlagLetter& entry : flag_letters) {
            if (entry.letter == letter) {
                flags |= entry.flag;
                known = true;
            }
        }
        if (!known) {
            context.invalid(argument);
        }
    }
    return std::make_unique<InodeFlagsTest>(match, flags);
}

} // namespace ufind
