// Evaluating the expression for one entry.
//
// A plain recursive switch over the tree: the tree is small and the switch
// keeps the cost of the name-and-type primaries visible in one place; every
// other primary is a Primary object (primary.hpp) called through one virtual
// call.  Tests that need only the name or d_type never ask the walk for
// metadata.
//
// Metadata: EvalContext::stat() asks the walk once per entry, for the union
// of the STATX_* fields the whole expression needs (Command::stat_mask), and
// keeps the answer until the next entry; no primary calls statx itself.
#pragma once

#include "expr/expr.hpp"
#include "output/output.hpp"
#include "output/output_files.hpp"
#include "output/path_display.hpp"

#include <ioq.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>

#include <string>
#include <string_view>

namespace ufind {

struct EvalContext {
    EvalContext(ioq::Walk& walk, OutputFiles& outputs)
        : walk(walk), outputs(outputs), out(outputs.standard()) {}

    ioq::Walk& walk;
    OutputFiles& outputs;
    Output& out;  // standard output
    const ioq::Entry* entry = nullptr;
    std::string_view root;  // the starting point entry was found under (%H, %P)
    ioq_symlinks symlinks = IOQ_SYMLINKS_PHYSICAL;
    bool ignore_readdir_race = false;  // files vanishing mid-walk are no error
    bool post_order = false;  // -depth: directories come after what is in them
    unsigned stat_mask = STATX_TYPE;  // what stat() asks for
    struct timespec start_time {};    // when the run started (-ls tells recent dates by it)
    bool quit = false;  // -quit ran: stop evaluating, end the walk
    int exit_status = -1;  // bfs's -exit STATUS ran: the run's status; -1 none
    // How -print shows paths on standard output; null: the bytes as they are.
    const PathDisplay* display = nullptr;
    std::string line;   // reused: a displayed path

    // Forgets the previous entry's metadata.
    void begin_entry(const ioq::Entry& next) {
        entry = &next;
        stat_error_ = -1;
    }

    // Whether the entry's metadata is its link target's: -L, or -H on a
    // starting point.
    bool follows_links() const {
        return symlinks == IOQ_SYMLINKS_LOGICAL ||
               (symlinks == IOQ_SYMLINKS_ROOTS && entry->depth() == 0);
    }

    // The entry's metadata as find sees it: the link target's when links are
    // followed, except that a broken link is itself.  nullptr after reporting
    // why there is none (once per entry).
    const struct statx* stat();
    // Why stat() gave nullptr for this entry (an errno), or 0.
    int stat_error() const { return stat_error_ > 0 ? stat_error_ : 0; }

    // Where the entry is, for the *at() calls of the primaries that look
    // at the file itself (-readable, -empty, -lname, %l): its whole path
    // while that fits in PATH_MAX, one lookup as find makes; past it the
    // directory the walk read and the name there, which the kernel takes
    // at any depth.  0, or an errno.
    int locate(int& dirfd, const char*& name);

    // Why the entry, a symbolic link, cannot be followed (ENOENT: it is
    // broken; ENOTDIR: its target goes through a file; ELOOP), or 0.  Asks
    // the kernel, since the walk answers a broken link's followed stat with
    // the link itself.
    int link_target_error();

private:
    struct statx stat_buf_;
    int stat_error_ = -1;  // -1 not asked yet, 0 stat_buf_ valid, else an errno
};

bool evaluate(const Expr& expr, EvalContext& context);

// The target of the entry, a symbolic link, into buffer (grown as needed,
// never shrunk: no allocation per link once grown); false with errno set
// on failure.
bool read_link(EvalContext& context, std::string& buffer);

// The ioq_type of a statx mode.
ioq_type type_of_mode(unsigned mode);

} // namespace ufind
