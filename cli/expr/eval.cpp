#include "expr/eval.hpp"

#include "system/diagnostics.hpp"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace ufind {

ioq_type type_of_mode(unsigned mode) {
    switch (mode & S_IFMT) {
    case S_IFREG: return IOQ_TYPE_REGULAR;
    case S_IFDIR: return IOQ_TYPE_DIRECTORY;
    case S_IFLNK: return IOQ_TYPE_SYMLINK;
    case S_IFBLK: return IOQ_TYPE_BLOCK;
    case S_IFCHR: return IOQ_TYPE_CHAR;
    case S_IFIFO: return IOQ_TYPE_FIFO;
    case S_IFSOCK: return IOQ_TYPE_SOCKET;
    default: return IOQ_TYPE_UNKNOWN;
    }
}

const struct statx* EvalContext::stat() {
    if (stat_error_ == 0) {
        return &stat_buf_;
    }
    if (stat_error_ > 0) {
        return nullptr;
    }
    bool follow = follows_links();
    int result = walk.stat(stat_mask, follow, stat_buf_);
    if ((result == -ENOENT || result == -ENOTDIR) && follow) {
        // A broken link under -L or -H: find describes the link itself
        // (a target through a file was reported by report_unfollowable_link).
        result = walk.stat(stat_mask, false, stat_buf_);
    }
    if (result < 0) {
        stat_error_ = -result;
        report_path_error(entry->path(), stat_error_);
        return nullptr;
    }
    stat_error_ = 0;
    return &stat_buf_;
}

int EvalContext::locate(int& dirfd, const char*& name) {
    if (entry->path().size() < PATH_MAX) {
        dirfd = AT_FDCWD;
        name = entry->c_path();
        return 0;
    }
    int located = walk.entry_at(dirfd, name);
    return located < 0 ? -located : 0;
}

int EvalContext::link_target_error() {
    int dirfd = AT_FDCWD;
    const char* name = nullptr;
    if (int error = locate(dirfd, name)) {
        return error;
    }
    struct statx buf;
    return ::statx(dirfd, name, 0, STATX_TYPE, &buf) == 0 ? 0 : errno;
}

bool read_link(EvalContext& context, std::string& buffer) {
    int dirfd = AT_FDCWD;
    const char* name = nullptr;
    if (int error = context.locate(dirfd, name)) {
        errno = error;
        return false;
    }
    buffer.resize(std::max<std::size_t>(256, buffer.capacity()));
    while (true) {
        ssize_t n = ::readlinkat(dirfd, name, buffer.data(), buffer.size());
        if (n < 0) {
            return false;
        }
        if (static_cast<std::size_t>(n) < buffer.size()) {
            buffer.resize(static_cast<std::size_t>(n));
            return true;
        }
        buffer.resize(buffer.size() * 2);
    }
}

namespace {

// -xtype: the type seen the other way round from -type.  Under -P a link's
// target (a broken link stays a link); under -L the link itself.
ioq_type other_type(EvalContext& context) {
    ioq_type type = context.entry->type();
    bool follows = context.follows_links();
    if (!follows && type != IOQ_TYPE_SYMLINK) {
        return type;
    }
    struct statx buf;
    int result = context.walk.stat(STATX_TYPE, !follows, buf);
    if (result == -ENOENT || result == -ENOTDIR) {
        return type;  // a broken link (no target, or one through a file)
    }
    if (result < 0) {
        report_path_error(context.entry->path(), -result);
        return IOQ_TYPE_UNKNOWN;  // matches no letter
    }
    return type_of_mode(buf.stx_mode);
}

} // namespace

bool evaluate(const Expr& expr, EvalContext& context) {
    switch (expr.kind) {
    case ExprKind::op_and:
        return evaluate(*expr.left, context) && !context.quit && evaluate(*expr.right, context);
    case ExprKind::op_or:
        return (evaluate(*expr.left, context) || (!context.quit && evaluate(*expr.right, context))) &&
               !context.quit;
    case ExprKind::op_comma:
        evaluate(*expr.left, context);
        return !context.quit && evaluate(*expr.right, context);
    case ExprKind::op_not:
        return !evaluate(*expr.left, context);
    case ExprKind::test_true:
        return true;
    case ExprKind::test_false:
        return false;
    case ExprKind::test_name:
    case ExprKind::test_iname:
        return expr.pattern.matches(context.entry->raw().name);
    case ExprKind::test_path:
        return expr.pattern.matches(context.entry->path());
    case ExprKind::test_type:
        return (expr.type_mask >> context.entry->type()) & 1u;
    case ExprKind::test_xtype:
        return (expr.type_mask >> other_type(context)) & 1u;
    case ExprKind::act_print:
        if (context.display) {
            context.line.clear();
            context.display->append_path(context.line, context);
            context.out.write(context.line);
        } else {
            context.out.write(context.entry->path());
        }
        context.out.put('\n');
        return true;
    case ExprKind::act_print0:
        context.out.write(context.entry->path());
        context.out.put('\0');
        return true;
    case ExprKind::act_prune:
        // find looks at what it prunes (is it a directory?) and fails, with
        // the error reported, on an entry it cannot stat; under -depth,
        // where -prune does nothing, it does not look.
        if (!context.post_order && !context.stat()) {
            return false;
        }
        context.walk.prune();
        return true;
    case ExprKind::act_quit:
        context.quit = true;
        return true;
    case ExprKind::primary:
        return expr.object->evaluate(context);
    }
    return false;
}

} // namespace ufind
