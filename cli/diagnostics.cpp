#include "diagnostics.hpp"

#include <unistd.h>

#include <cstring>
#include <string>

namespace ufind {
namespace {

bool failed = false;

void write_line(std::string line) {
    line.push_back('\n');
    // One write per message keeps lines whole when stderr is shared with
    // other processes (for instance children of -exec).
    std::size_t done = 0;
    while (done < line.size()) {
        ssize_t n = ::write(STDERR_FILENO, line.data() + done, line.size() - done);
        if (n <= 0) {
            return;
        }
        done += static_cast<std::size_t>(n);
    }
}

} // namespace

void report_error(std::string_view message) {
    failed = true;
    write_line("ufind: " + std::string(message));
}

void report_path_error(std::string_view path, int error) {
    failed = true;
    write_line("ufind: '" + std::string(path) + "': " + std::strerror(error));
}

void report_note(std::string_view message) { write_line("ufind: " + std::string(message)); }

void report_warning(std::string_view message) {
    write_line("ufind: warning: " + std::string(message));
}

void mark_failed() { failed = true; }

void fail_usage(std::string_view message) {
    report_error(message);
    throw UsageError{};
}

int exit_status() { return failed ? 1 : 0; }

} // namespace ufind
