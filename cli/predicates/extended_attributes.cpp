#include "predicates/extended_attributes.hpp"

#include "expr/eval.hpp"
#include "system/diagnostics.hpp"

#include <fcntl.h>
#include <sys/xattr.h>

#include <cerrno>
#include <string>
#include <vector>

namespace ufind {
namespace {

// The entry's path as the xattr calls take it: they have no *at form, so a
// path past PATH_MAX goes through the directory's /proc/self/fd link.
bool xattr_path(EvalContext& context, std::string& path) {
    int dirfd = AT_FDCWD;
    const char* name = nullptr;
    if (int error = context.locate(dirfd, name)) {
        report_path_error(context.entry->path(), error);
        return false;
    }
    path = dirfd == AT_FDCWD ? std::string(name)
                             : "/proc/self/fd/" + std::to_string(dirfd) + "/" + name;
    return true;
}

// A missing attribute, or a file system without them: simply false.
bool is_absence(int error) { return error == ENODATA || error == ENOTSUP; }

class AttributeTest final : public Primary {
public:
    // names: the attributes of which one must exist; empty: any at all.
    explicit AttributeTest(std::vector<std::string> names) : names_(std::move(names)) {}

    bool evaluate(EvalContext& context) override {
        if (!xattr_path(context, path_)) {
            return false;
        }
        bool follow = context.follows_links();
        if (names_.empty()) {
            ssize_t size = follow ? ::listxattr(path_.c_str(), nullptr, 0)
                                  : ::llistxattr(path_.c_str(), nullptr, 0);
            return size > 0 || (size < 0 && report(context, errno));
        }
        for (const std::string& name : names_) {
            ssize_t size = follow ? ::getxattr(path_.c_str(), name.c_str(), nullptr, 0)
                                  : ::lgetxattr(path_.c_str(), name.c_str(), nullptr, 0);
            if (size >= 0) {
                return true;
            }
            if (!is_absence(errno)) {
                return report(context, errno);
            }
        }
        return false;
    }

private:
    // Reports a real failure; false either way.
    static bool report(EvalContext& context, int error) {
        if (!is_absence(error)) {
            report_path_error(context.entry->path(), error);
        }
        return false;
    }

    std::vector<std::string> names_;
    std::string path_;  // reused: no allocation per entry once grown
};

} // namespace

std::unique_ptr<Primary> parse_xattr(ParseContext&) {
    return std::make_unique<AttributeTest>(std::vector<std::string>{});
}

std::unique_ptr<Primary> parse_xattrname(ParseContext& context) {
    return std::make_unique<AttributeTest>(std::vector<std::string>{context.take()});
}

std::unique_ptr<Primary> parse_acl(ParseContext&) {
    return std::make_unique<AttributeTest>(
        std::vector<std::string>{"system.posix_acl_access", "system.posix_acl_default"});
}

std::unique_ptr<Primary> parse_capable(ParseContext&) {
    return std::make_unique<AttributeTest>(std::vector<std::string>{"security.capability"});
}

} // namespace ufind
