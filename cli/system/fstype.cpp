#include "system/fstype.hpp"

#include <sys/sysmacros.h>

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ufind {
namespace {

// The whitespace-separated field of line at index, or "".
std::string_view field(std::string_view line, int index) {
    std::size_t at = 0;
    for (int i = 0;; ++i) {
        at = line.find_first_not_of(' ', at);
        if (at == std::string_view::npos) {
            return {};
        }
        std::size_t end = std::min(line.find(' ', at), line.size());
        if (i == index) {
            return line.substr(at, end - at);
        }
        at = end;
    }
}

bool parse_number(std::string_view text, unsigned& out) {
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
    return error == std::errc() && end == text.data() + text.size() && !text.empty();
}

// Read with stdio rather than iostreams: <sstream> alone linked the locale
// machinery of libstdc++ into ufind (time_get, money_get, ... for every
// character type), 0.3 MB of text.
std::vector<std::pair<dev_t, std::string>> read_mount_table() {
    std::vector<std::pair<dev_t, std::string>> table;
    std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen("/proc/self/mountinfo", "re"), &std::fclose);
    if (!file) {
        return table;
    }
    char* buffer = nullptr;
    std::size_t capacity = 0;
    ssize_t length;
    while ((length = ::getline(&buffer, &capacity, file.get())) > 0) {
        // "36 35 98:0 /root /mnt opts [optional fields] - ext3 /dev/root rw"
        std::string_view line(buffer, static_cast<std::size_t>(length));
        if (line.back() == '\n') {
            line.remove_suffix(1);
        }
        std::string_view device = field(line, 2);
        std::size_t separator = line.find(" - ");
        std::size_t colon = device.find(':');
        unsigned major_number = 0;
        unsigned minor_number = 0;
        if (separator == std::string_view::npos || colon == std::string_view::npos ||
            !parse_number(device.substr(0, colon), major_number) ||
            !parse_number(device.substr(colon + 1), minor_number)) {
            continue;
        }
        std::string_view type = field(line.substr(separator + 3), 0);
        table.emplace_back(makedev(major_number, minor_number), std::string(type));
    }
    std::free(buffer);
    return table;
}

} // namespace

std::string_view filesystem_type(dev_t device) {
    static const std::vector<std::pair<dev_t, std::string>> table = read_mount_table();
    // The last mount of a device is the one a path reaches.
    for (auto it = table.rbegin(); it != table.rend(); ++it) {
        if (it->first == device) {
            return it->second;
        }
    }
    return "unknown";
}

} // namespace ufind
