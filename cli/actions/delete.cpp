#include "actions/delete.hpp"

#include "expr/eval.hpp"
#include "system/diagnostics.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace ufind {
namespace {

class DeleteAction final : public Primary {
public:
    // A file already gone is no failure under -ignore_readdir_race (as in
    // find), nor under -L, where one directory reached by two paths has its
    // files listed twice before the first visit deletes them (find's lazy
    // reading never lists them the second time).
    bool evaluate(EvalContext& context) override {
        const ioq::Entry& entry = *context.entry;
        if (entry.name() == ".") {
            return true;
        }
        // Through the directory the walk read, not the path: a directory
        // on the path replaced by a link since then cannot lead the unlink
        // out of the tree, and depth is not limited by PATH_MAX.
        int dirfd = AT_FDCWD;
        const char* name = nullptr;
        int located = context.walk.entry_at(dirfd, name);
        if (located < 0) {
            errno = -located;
        } else {
            int flags = entry.type() == IOQ_TYPE_DIRECTORY ? AT_REMOVEDIR : 0;
            if (::unlinkat(dirfd, name, flags) == 0) {
                return true;
            }
            // d_type said file but it is a directory now (or the other way).
            if (errno == EISDIR && flags == 0 && ::unlinkat(dirfd, name, AT_REMOVEDIR) == 0) {
                return true;
            }
        }
        bool gone_is_fine =
            context.ignore_readdir_race || context.symlinks == IOQ_SYMLINKS_LOGICAL;
        if (errno == ENOENT && gone_is_fine && entry.depth() > 0) {
            return true;
        }
        int error = errno;
        report_error("cannot delete " + quote_path(entry.path()) + ": " + std::strerror(error));
        return false;
    }
    bool is_action() const override { return true; }
};

} // namespace

std::unique_ptr<Primary> parse_delete(ParseContext&) { return std::make_unique<DeleteAction>(); }

} // namespace ufind
