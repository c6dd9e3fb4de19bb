#include "mount_table.hpp"

#include "../ioq/unique_fd.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <vector>

namespace ioq::walk {
namespace {

// The fields of one line, split at single spaces.
std::vector<std::string_view> fields_of(std::string_view line) {
    std::vector<std::string_view> fields;
    while (!line.empty()) {
        std::size_t space = line.find(' ');
        fields.push_back(line.substr(0, space));
        if (space == std::string_view::npos) {
            break;
        }
        line.remove_prefix(space + 1);
    }
    return fields;
}

bool parse_number(std::string_view text, unsigned& out) {
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
    return error == std::errc() && end == text.data() + text.size() && !text.empty();
}

struct DeviceType {
    unsigned major;
    unsigned minor;
    std::string type;
};

std::vector<DeviceType> read_device_types() {
    std::vector<DeviceType> table;
    std::string text;
    if (!read_mount_table(text)) {
        return table;
    }
    std::string_view rest = text;
    while (!rest.empty()) {
        MountLine mount;
        std::string_view line = next_line(rest);
        if (!parse_mount_line(line, mount)) {
            continue;  // the others still say what they are
        }
        std::size_t colon = mount.device.find(':');
        unsigned major = 0;
        unsigned minor = 0;
        if (colon == std::string_view::npos || !parse_number(mount.device.substr(0, colon), major) ||
            !parse_number(mount.device.substr(colon + 1), minor)) {
            continue;
        }
        table.push_back({major, minor, std::string(mount.type)});
    }
    return table;
}

} // namespace

std::string_view next_line(std::string_view& text) {
    std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    return line;
}

bool parse_mount_line(std::string_view line, MountLine& out) {
    std::vector<std::string_view> fields = fields_of(line);
    auto separator = std::find(fields.begin() + std::min<std::size_t>(fields.size(), 6),
                               fields.end(), std::string_view("-"));
    if (fields.size() < 6 || separator == fields.end() || separator + 1 == fields.end()) {
        return false;
    }
    out.device = fields[2];
    out.mount_point = fields[4];
    out.type = *(separator + 1);
    return true;
}

bool read_mount_table(std::string& out) {
    UniqueFd fd(::open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC));
    if (!fd.valid()) {
        return false;
    }
    char chunk[16 * 1024];
    for (;;) {
        ssize_t got = ::read(fd.get(), chunk, sizeof chunk);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0) {
            return got == 0;
        }
        out.append(chunk, static_cast<std::size_t>(got));
    }
}

const char* filesystem_type(unsigned major, unsigned minor) {
    static const std::vector<DeviceType> table = read_device_types();
    auto found = std::find_if(table.rbegin(), table.rend(), [&](const DeviceType& entry) {
        return entry.major == major && entry.minor == minor;
    });
    return found == table.rend() ? nullptr : found->type.c_str();
}

} // namespace ioq::walk
