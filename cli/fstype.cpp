#include "fstype.hpp"

#include <sys/sysmacros.h>

#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace ufind {
namespace {

std::vector<std::pair<dev_t, std::string>> read_mount_table() {
    std::vector<std::pair<dev_t, std::string>> table;
    std::ifstream file("/proc/self/mountinfo");
    std::string line;
    while (std::getline(file, line)) {
        // "36 35 98:0 /root /mnt opts [optional fields] - ext3 /dev/root rw"
        std::istringstream fields(line);
        std::string id, parent, device;
        fields >> id >> parent >> device;
        std::size_t separator = line.find(" - ");
        std::size_t colon = device.find(':');
        if (separator == std::string::npos || colon == std::string::npos) {
            continue;
        }
        std::istringstream tail(line.substr(separator + 3));
        std::string type;
        tail >> type;
        unsigned major_number = static_cast<unsigned>(std::stoul(device.substr(0, colon)));
        unsigned minor_number = static_cast<unsigned>(std::stoul(device.substr(colon + 1)));
        table.emplace_back(makedev(major_number, minor_number), type);
    }
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
