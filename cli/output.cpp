#include "output.hpp"

#include "diagnostics.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace ufind {

Output::Output(int fd, std::size_t capacity)
    : fd_(fd), capacity_(capacity), buffer_(capacity), terminal_(::isatty(fd) == 1) {}

Output::~Output() { flush(); }

bool Output::flush() {
    if (used_ > 0) {
        write_all(buffer_.data(), used_);
        used_ = 0;
    }
    return !failed_;
}

void Output::write_slow(std::string_view text) {
    flush();
    if (text.size() >= capacity_) {
        write_all(text.data(), text.size());
        return;
    }
    text.copy(buffer_.data(), text.size());
    used_ = text.size();
}

bool Output::write_all(const char* data, std::size_t size) {
    if (failed_) {
        return false;  // reported once; later output is dropped, not retried
    }
    if (before_write_ && size > 0) {
        before_write_(before_write_argument_);
    }
    while (size > 0) {
        ssize_t n = ::write(fd_, data, size);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            failed_ = true;
            report_error(std::string("write error: ") + std::strerror(errno));
            return false;
        }
        data += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

} // namespace ufind
