// LsColors: coloring paths the way `ls --color` does, from LS_COLORS.
//
//   LS_COLORS="di=01;34:ln=01;36:ex=01;32:*.tar=01;31:..."
//      |
//   LsColors (parsed once) --sequence_for(type, facts, name)--> "01;31"
//      |
//   append_colored(out, "01;31", "x.tar") --> ESC[01;31m x.tar ESC[0m
//
// The rules are those of GNU ls 9.1 (Debian 12), checked against it by
// tests/ux: a regular file is setuid (su), setgid (sg), executable (ex) or
// multiply linked (mh) before its extension counts; extensions match
// case-insensitively and the last rule given wins; a directory is sticky
// and other-writable (tw), other-writable (ow) or sticky (st); a broken
// symlink is an orphan (or); "ln=target" colors a link as what it points
// to.  Unset indicators take ls's built-in defaults.  Escapes in values
// (\e, \033, ^[) are decoded as ls decodes them.
#pragma once

#include <ioq.h>

#include <string>
#include <string_view>
#include <vector>

namespace ufind {

// What the color of one file depends on beyond its type and name.
struct ColorFacts {
    unsigned mode = 0;         // st_mode of the file; 0 when unknown
    unsigned links = 1;
    bool broken_link = false;  // a symlink whose target cannot be reached
    unsigned target_mode = 0;  // for "ln=target": st_mode of the link's target
};

class LsColors {
public:
    // Indicators, in ls's order.
    enum Indicator : unsigned char {
        left, right, end, reset, normal, file, directory, link, fifo, socket, block, character,
        missing, orphan, executable, door, setuid, setgid, sticky, other_writable,
        sticky_other_writable, capability, multi_hardlink, clear_line, count
    };

    // ls's built-in defaults, then each rule of spec (LS_COLORS's syntax).
    explicit LsColors(std::string_view spec);

    // Whether the color of a file of this type can depend on its mode,
    // links or link target (so the caller knows whether to stat it).
    bool needs_facts(ioq_type type) const;

    // The SGR parameters for a file ("01;34"), or empty for no color.
    std::string_view sequence_for(ioq_type type, const ColorFacts& facts,
                                  std::string_view name) const;

    // Appends text wrapped in the start and end sequences of sequence;
    // text alone when sequence is empty.
    void append_colored(std::string& out, std::string_view sequence, std::string_view text) const;

    bool is_colored(Indicator indicator) const;
    std::string_view value(Indicator indicator) const { return values_[indicator]; }

private:
    std::string_view sequence_for_mode(ioq_type type, const ColorFacts& facts) const;

    struct Extension {
        std::string suffix;
        std::string sequence;
    };
    std::string values_[count];
    bool set_[count] = {};
    std::vector<Extension> extensions_;  // last given first: the last rule wins
    bool link_as_target_ = false;        // "ln=target"
};

} // namespace ufind
