#include "actions/ls_format.hpp"

#include "actions/printf.hpp"
#include "expr/eval.hpp"
#include "predicates/path.hpp"
#include "system/user_cache.hpp"

#include <sys/sysmacros.h>

#include <algorithm>
#include <cstdio>

namespace ufind {
namespace {

// The owner column's width; it only grows, as in find (see below).
int owner_width = 8;

void append_padded(std::string& out, std::string_view text, int width, bool left) {
    std::size_t pad = text.size() < static_cast<std::size_t>(width)
                          ? static_cast<std::size_t>(width) - text.size()
                          : 0;
    if (!left) out.append(pad, ' ');
    out.append(text);
    if (left) out.append(pad, ' ');
}

void append_number(std::string& out, unsigned long long value, int width, bool left = false) {
    char digits[24];
    int n = std::snprintf(digits, sizeof digits, "%llu", value);
    append_padded(out, std::string_view(digits, static_cast<std::size_t>(n)), width, left);
}

} // namespace

void append_ls_name(std::string& out, std::string_view name) {
    for (char c : name) {
        auto byte = static_cast<unsigned char>(c);
        switch (c) {
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\b': out += "\\b"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\f': out += "\\f"; break;
        case ' ': out += "\\ "; break;
        case '"': out += "\\\""; break;
        default:
            if (byte > 040 && byte < 0177) {
                out += c;
            } else {
                char octal[8];
                std::snprintf(octal, sizeof octal, "\\%03o", byte);
                out += octal;
            }
        }
    }
}

void format_ls_line(std::string& out, std::string_view path, const struct statx& buf,
                    std::string_view target, time_t now) {
    append_number(out, buf.stx_ino, 9);
    out += ' ';
    append_number(out, (buf.stx_blocks + 1) / 2, 6);  // 1 KiB blocks, rounded up
    out += ' ';
    char mode[11];
    mode_string(buf.stx_mode, mode);
    out += mode;
    out += ' ';
    append_number(out, buf.stx_nlink, 3);
    out += ' ';
    if (const std::string* name = user_name(buf.stx_uid)) {
        append_padded(out, *name, owner_width, true);
    } else {
        // find counts the space after a number into the column's width, so
        // names printed after the first unnamed owner get one more column.
        std::size_t before = out.size();
        append_number(out, buf.stx_uid, 8, true);
        owner_width = std::max(owner_width, static_cast<int>(out.size() - before) + 1);
    }
    out += ' ';
    if (const std::string* name = group_name(buf.stx_gid)) {
        append_padded(out, *name, 8, true);
    } else {
        append_number(out, buf.stx_gid, 8, true);
    }
    out += ' ';
    if (S_ISCHR(buf.stx_mode) || S_ISBLK(buf.stx_mode)) {
        append_number(out, buf.stx_rdev_major, 3);
        out += ", ";
        append_number(out, buf.stx_rdev_minor, 3);
    } else {
        append_number(out, buf.stx_size, 8);
    }
    out += ' ';
    auto when = static_cast<time_t>(buf.stx_mtime.tv_sec);
    // Six months of an average Gregorian year, as ls and find count them.
    bool recent = now - 31556952 / 2 <= when && when <= now;
    struct tm local;
    char date[64];
    if (::localtime_r(&when, &local)) {
        std::size_t n = ::strftime(date, sizeof date, recent ? "%b %e %H:%M" : "%b %e  %Y", &local);
        out.append(date, n);
    } else {
        append_number(out, static_cast<unsigned long long>(when), 12);
    }
    out += ' ';
    append_ls_name(out, path);
    if (S_ISLNK(buf.stx_mode)) {
        out += " -> ";
        append_ls_name(out, target);
    }
    out += '\n';
}

namespace {

class LsAction final : public Primary {
public:
    explicit LsAction(Output& output) : output_(output) {}
    bool evaluate(EvalContext& context) override {
        const struct statx* buf = context.stat();
        if (!buf) {
            return true;
        }
        target_.clear();
        if (S_ISLNK(buf->stx_mode) && !read_link(context, target_)) {
            target_.clear();
        }
        line_.clear();
        // A file changed after the run started is still "recent", as find's
        // refreshed clock would have it.
        time_t now = context.start_time.tv_sec;
        if (buf->stx_mtime.tv_sec > now) {
            struct timespec current;
            ::clock_gettime(CLOCK_REALTIME, &current);
            now = current.tv_sec;
        }
        format_ls_line(line_, context.entry->path(), *buf, target_, now);
        output_.write(line_);
        return true;
    }
    unsigned stat_mask() const override {
        return STATX_TYPE | STATX_MODE | STATX_NLINK | STATX_UID | STATX_GID | STATX_MTIME |
               STATX_INO | STATX_SIZE | STATX_BLOCKS;
    }
    bool is_action() const override { return true; }

private:
    Output& output_;
    std::string line_;    // reused for every entry
    std::string target_;  // reused for every link
};

} // namespace

std::unique_ptr<Primary> parse_ls(ParseContext& context) {
    Output* output = &context.command.outputs->standard();
    if (context.name() == "-fls") {
        output = &context.command.outputs->open(context.take());
    }
    return std::make_unique<LsAction>(*output);
}

} // namespace ufind
