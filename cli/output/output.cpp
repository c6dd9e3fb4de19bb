#include "output/output.hpp"

#include "system/diagnostics.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

namespace ufind {

Output::Output(int fd, std::string name, std::size_t capacity)
    : fd_(fd), name_(std::move(name)), capacity_(capacity), terminal_(::isatty(fd) == 1) {}

Output::~Output() { flush(); }

bool Output::flush() {
    if (used_ > 0) {
        write_all(buffer_.get(), used_);
        used_ = 0;
    }
    return !failed_;
}

void Output::make_room() {
    if (!buffer_) {
        buffer_ = std::make_unique_for_overwrite<char[]>(capacity_);
        room_ = capacity_;
    } else {
        flush();
    }
}

void Output::write_slow(std::string_view text) {
    if (!buffer_) {
        make_room();
        if (text.size() <= room_) {
            write(text);
            return;
        }
    }
    flush();
    if (text.size() >= capacity_) {
        write_all(text.data(), text.size());
        return;
    }
    text.copy(buffer_.get(), text.size());
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
            int error = errno;
            failed_ = true;
            report_error(quote_path(name_) + ": " + std::strerror(error));
            if (fd_ == STDOUT_FILENO) {
                // find's exit (gnulib's close_stdout) says it again, with
                // the reason only when closing the descriptor fails too.
                report_error(error == EBADF ? std::string("write error: ") + std::strerror(error)
                                            : std::string("write error"));
            }
            return false;
        }
        data += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

} // namespace ufind
