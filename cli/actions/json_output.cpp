#include "actions/json_output.hpp"

#include "actions/printf.hpp"
#include "expr/eval.hpp"
#include "predicates/path.hpp"
#include "system/user_cache.hpp"

#include <sys/stat.h>
#include <time.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace ufind {
namespace {

// The length of the valid UTF-8 sequence at the start of text, or 0.
std::size_t utf8_sequence_length(std::string_view text) {
    auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    unsigned char lead = byte(0);
    std::size_t length = lead < 0x80 ? 1 : lead < 0xC2 ? 0 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3
                         : lead < 0xF5 ? 4 : 0;
    if (length == 0 || length > text.size()) {
        return 0;
    }
    for (std::size_t i = 1; i < length; ++i) {
        if ((byte(i) & 0xC0) != 0x80) {
            return 0;
        }
    }
    // Overlong forms, UTF-16 surrogates and code points past U+10FFFF.
    if ((lead == 0xE0 && byte(1) < 0xA0) || (lead == 0xED && byte(1) >= 0xA0) ||
        (lead == 0xF0 && byte(1) < 0x90) || (lead == 0xF4 && byte(1) >= 0x90)) {
        return 0;
    }
    return length;
}

const char* type_name(ioq_type type) {
    switch (type) {
    case IOQ_TYPE_REGULAR: return "file";
    case IOQ_TYPE_DIRECTORY: return "directory";
    case IOQ_TYPE_SYMLINK: return "symlink";
    case IOQ_TYPE_BLOCK: return "block";
    case IOQ_TYPE_CHAR: return "char";
    case IOQ_TYPE_FIFO: return "fifo";
    case IOQ_TYPE_SOCKET: return "socket";
    default: return "unknown";
    }
}

class JsonAction final : public Primary {
public:
    explicit JsonAction(Output& output) : output_(output) {}

    bool evaluate(EvalContext& context) override {
        const ioq::Entry& entry = *context.entry;
        line_.clear();
        line_ += '{';
        add_name("path", entry.path());
        line_ += ',';
        add_name("name", entry.name());
        line_ += ",\"depth\":" + std::to_string(entry.depth());
        const struct statx* buf = context.stat();
        if (!buf) {
            line_ += ",\"type\":\"";
            line_ += type_name(entry.type());
            line_ += "\",\"error\":";
            append_json_string(line_, std::strerror(context.stat_error()));
            line_ += "}\n";
            output_.write(line_);
            return true;
        }
        add_metadata(*buf);
        if (S_ISLNK(buf->stx_mode)) {
            target_.clear();
            if (read_link(context, target_)) {
                line_ += ',';
                add_name("target", target_);
            }
        }
        line_ += "}\n";
        output_.write(line_);
        return true;
    }
    unsigned stat_mask() const override { return STATX_BASIC_STATS | STATX_BTIME; }
    bool is_action() const override { return true; }

private:
    // "field":"text", and "field_b64":"..." when text is not UTF-8.
    void add_name(const char* field, std::string_view text) {
        line_ += '"';
        line_ += field;
        line_ += "\":";
        if (!append_json_string(line_, text)) {
            line_ += ",\"";
            line_ += field;
            line_ += "_b64\":\"";
            append_base64(line_, text);
            line_ += '"';
        }
    }

    void add_number(const char* field, unsigned long long value) {
        line_ += ",\"";
        line_ += field;
        line_ += "\":";
        line_ += std::to_string(value);
    }

    void add_owner(const char* field, const std::string* name) {
        line_ += ",\"";
        line_ += field;
        line_ += "\":";
        if (name) {
            append_json_string(line_, *name);
        } else {
            line_ += "null";
        }
    }

    // "atime":"2026-11-30T08:05:02.123456789+01:00","atime_epoch":1796025902.123456789
    void add_time(const char* field, const struct statx_timestamp* ts) {
        line_ += ",\"";
        line_ += field;
        line_ += "\":";
        if (!ts) {
            line_ += "null,\"";
            line_ += field;
            line_ += "_epoch\":null";
            return;
        }
        char text[96];
        time_t seconds = static_cast<time_t>(ts->tv_sec);
        struct tm local;
        if (!::localtime_r(&seconds, &local)) {
            line_ += "null";
        } else {
            std::size_t n = ::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &local);
            long offset = local.tm_gmtoff;
            char sign = offset < 0 ? '-' : '+';
            offset = offset < 0 ? -offset : offset;
            std::snprintf(text + n, sizeof text - n, ".%09u%c%02ld:%02ld", ts->tv_nsec, sign,
                          offset / 3600, offset / 60 % 60);
            line_ += '"';
            line_ += text;
            line_ += '"';
        }
        line_ += ",\"";
        line_ += field;
        line_ += "_epoch\":";
        // The exact instant as a decimal: -1.5 is 1.5 s before the epoch.
        long long whole = ts->tv_sec;
        unsigned fraction = ts->tv_nsec;
        if (whole < 0 && fraction > 0) {
            std::snprintf(text, sizeof text, "-%lld.%09u", -(whole + 1), 1000000000u - fraction);
        } else {
            std::snprintf(text, sizeof text, "%lld.%09u", whole, fraction);
        }
        line_ += text;
    }

    void add_metadata(const struct statx& buf) {
        line_ += ",\"type\":\"";
        line_ += type_name(type_of_mode(buf.stx_mode));
        line_ += '"';
        add_number("size", buf.stx_size);
        add_number("blocks", buf.stx_blocks);
        char mode[16];
        std::snprintf(mode, sizeof mode, "%04o", buf.stx_mode & 07777u);
        line_ += ",\"mode\":\"";
        line_ += mode;
        char perms[11];
        mode_string(buf.stx_mode, perms);
        line_ += "\",\"perms\":\"";
        line_ += perms;
        line_ += '"';
        add_number("uid", buf.stx_uid);
        add_number("gid", buf.stx_gid);
        add_owner("user", user_name(buf.stx_uid));
        add_owner("group", group_name(buf.stx_gid));
        add_number("links", buf.stx_nlink);
        add_number("inode", buf.stx_ino);
        line_ += ",\"device\":\"" + std::to_string(buf.stx_dev_major) + ":" +
                 std::to_string(buf.stx_dev_minor) + "\"";
        add_time("atime", &buf.stx_atime);
        add_time("mtime", &buf.stx_mtime);
        add_time("ctime", &buf.stx_ctime);
        add_time("btime", (buf.stx_mask & STATX_BTIME) ? &buf.stx_btime : nullptr);
    }

    Output& output_;
    std::string line_;    // reused for every entry
    std::string target_;  // reused for every link
};

} // namespace

bool append_json_string(std::string& out, std::string_view text) {
    static constexpr char hex[] = "0123456789abcdef";
    bool valid = true;
    out += '"';
    while (!text.empty()) {
        unsigned char c = static_cast<unsigned char>(text.front());
        if (c >= 0x80) {
            std::size_t length = utf8_sequence_length(text);
            if (length == 0) {
                out += "\\ufffd";
                valid = false;
                length = 1;
            } else {
                out.append(text.substr(0, length));
            }
            text.remove_prefix(length);
            continue;
        }
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        case '\r': out += "\\r"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        default:
            if (c < 0x20 || c == 0x7f) {
                out += "\\u00";
                out += hex[c >> 4];
                out += hex[c & 15];
            } else {
                out += static_cast<char>(c);
            }
        }
        text.remove_prefix(1);
    }
    out += '"';
    return valid;
}

void append_base64(std::string& out, std::string_view bytes) {
    static constexpr char digits[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::size_t i = 0;
    auto at = [&](std::size_t k) { return static_cast<unsigned char>(bytes[k]); };
    for (; i + 3 <= bytes.size(); i += 3) {
        unsigned group = (at(i) << 16) | (at(i + 1) << 8) | at(i + 2);
        out += digits[group >> 18];
        out += digits[(group >> 12) & 63];
        out += digits[(group >> 6) & 63];
        out += digits[group & 63];
    }
    if (bytes.size() - i == 1) {
        unsigned group = at(i) << 16;
        out += digits[group >> 18];
        out += digits[(group >> 12) & 63];
        out += "==";
    } else if (bytes.size() - i == 2) {
        unsigned group = (at(i) << 16) | (at(i + 1) << 8);
        out += digits[group >> 18];
        out += digits[(group >> 12) & 63];
        out += digits[(group >> 6) & 63];
        out += '=';
    }
}

std::unique_ptr<Primary> parse_json(ParseContext& context) {
    Output* output = &context.command.outputs->standard();
    if (context.name() == "-fjson") {
        output = &context.command.outputs->open(context.take());
    }
    return std::make_unique<JsonAction>(*output);
}

} // namespace ufind
