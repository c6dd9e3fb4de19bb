#include "output/status_line.hpp"

#include "system/diagnostics.hpp"

#include "output/terminal_text.hpp"
#include "output/walk_report.hpp"

#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>

namespace ufind {
namespace {

constexpr std::int64_t redraw_interval_ns = 250'000'000;  // four times a second


std::size_t terminal_columns() {
    struct winsize size {};
    if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) {
        return size.ws_col;
    }
    return 80;
}

} // namespace

volatile std::sig_atomic_t StatusLine::requested_ = 0;

StatusLine::StatusLine(bool live, Output& standard_output) : live_(live), start_ns_(monotonic_ns()) {
    struct sigaction action {};
    action.sa_handler = [](int) { requested_ = 1; };
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGUSR1, &action, nullptr);
    if (live_ && standard_output.terminal()) {
        standard_output.set_before_write(&StatusLine::erase_hook, this);
    }
}

StatusLine::~StatusLine() { finish(); }

void StatusLine::tick(const ioq::Entry& entry) {
    if (requested_) {
        requested_ = 0;
        draw(entry, true);
        return;
    }
    std::int64_t now = monotonic_ns();
    if (now - last_draw_ns_ >= redraw_interval_ns) {
        last_draw_ns_ = now;
        draw(entry, false);
    }
}

void StatusLine::draw(const ioq::Entry& entry, bool keep) {
    double seconds = static_cast<double>(monotonic_ns() - start_ns_) / 1e9;
    double rate = seconds > 0 ? static_cast<double>(entries_) / seconds : 0.0;
    char head[64];
    std::snprintf(head, sizeof head, "[%.1fs] ", seconds);
    std::string text = head;
    text.append(grouped(entries_)).append(" entries  ");
    text.append(grouped(directories_)).append(" dirs  depth ");
    text.append(std::to_string(entry.depth())).append("  ");
    char rate_text[32];
    if (rate >= 1e6) {
        std::snprintf(rate_text, sizeof rate_text, "%.1fM/s  ", rate / 1e6);
    } else if (rate >= 1e3) {
        std::snprintf(rate_text, sizeof rate_text, "%.1fk/s  ", rate / 1e3);
    } else {
        std::snprintf(rate_text, sizeof rate_text, "%.0f/s  ", rate);
    }
    text.append(rate_text);
    std::string path;
    append_printable(path, entry.path());
    if (keep) {
        // SIGUSR1: a line of its own that stays, the whole path in it.
        text.append(path).append("\n");
        if (shown_) {
            erase();
        }
        write_fully(STDERR_FILENO, text);
        return;
    }
    // Keep the line within the terminal: the path loses its head, which
    // the tail makes up for (the deepest part is what changes).
    std::size_t columns = terminal_columns();
    std::size_t room = columns > text.size() + 4 ? columns - text.size() - 1 : 0;
    if (path.size() > room) {
        std::size_t cut = path.size() - (room > 3 ? room - 3 : 0);
        while (cut < path.size() && (static_cast<unsigned char>(path[cut]) & 0xC0) == 0x80) {
            ++cut;  // not inside a UTF-8 character
        }
        path = room > 3 ? "..." + path.substr(cut) : std::string();
    }
    line_ = "\r\033[K" + text + path;
    write_fully(STDERR_FILENO, line_);
    shown_ = true;
}

void StatusLine::erase() {
    if (shown_) {
        write_fully(STDERR_FILENO, "\r\033[K");
        shown_ = false;
    }
}

void StatusLine::erase_hook(void* self) { static_cast<StatusLine*>(self)->erase(); }

void StatusLine::finish() { erase(); }

} // namespace ufind
