#include "system/fstype.hpp"

#include <ioq.h>

namespace ufind {

std::string_view filesystem_type(unsigned major, unsigned minor) {
    const char* type = ioq_filesystem_type(major, minor);
    return type ? type : "unknown";
}

} // namespace ufind
