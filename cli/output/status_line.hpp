// StatusLine: -status, a live line of progress on the terminal's stderr,
// and one line on SIGUSR1 whatever stderr is.
//
//   [2.3s] 123,456 entries  5,096 dirs  depth 7  53.6k/s  ./drivers/net/...
//
// The walk loop calls on_entry() for every entry; it costs an increment and
// a compare: the clock is read every 256 entries, and the line is redrawn
// when a quarter of a second has passed.  A SIGUSR1 handler only sets a
// flag, which on_entry() sees at the next entry.  When standard output is
// the same terminal, the line is erased before any output is written (see
// Output::set_before_write) so that paths never land on it; finish() erases
// it for good.
#pragma once

#include "output/output.hpp"

#include <ioq.hpp>

#include <csignal>
#include <cstdint>
#include <string>

namespace ufind {

class StatusLine {
public:
    // live: redraw on stderr (a terminal) while walking; else only SIGUSR1.
    StatusLine(bool live, Output& standard_output);
    ~StatusLine();
    StatusLine(const StatusLine&) = delete;
    StatusLine& operator=(const StatusLine&) = delete;

    void on_entry(const ioq::Entry& entry) {
        ++entries_;
        if (entry.type() == IOQ_TYPE_DIRECTORY) {
            ++directories_;
        }
        if (((entries_ & 255) == 0 && live_) || requested_) {
            tick(entry);
        }
    }

    // Erases the live line, if shown.
    void finish();

private:
    void tick(const ioq::Entry& entry);
    void draw(const ioq::Entry& entry, bool keep);
    void erase();
    static void erase_hook(void* self);

    bool live_;
    bool shown_ = false;
    std::uint64_t entries_ = 0;
    std::uint64_t directories_ = 0;
    std::int64_t start_ns_;
    std::int64_t last_draw_ns_ = 0;
    std::string line_;
    static volatile std::sig_atomic_t requested_;
};

} // namespace ufind
