// LsColors: coloring paths the way bfs 4.1 does, from LS_COLORS.
//
//   LS_COLORS="di=01;34:ln=01;36:ex=01;32:*.tar=01;31:..."   (then BFS_COLORS)
//      |
//   LsColors (parsed once) --color_for(type, facts, name)--> Color "01;31"
//      |
//   append_colored(out, color, "x.tar") --> ESC[01;31m x.tar ESC[0m
//
// The rules are bfs's, which are GNU ls's with a few differences bfs's
// tests pin down: a regular file is setuid (su), setgid (sg), executable
// (ex) or multiply linked (mh) before its extension counts, and a plain
// file with no rule takes "no" when "fi" is unset; a directory is sticky
// and other-writable (tw), other-writable (ow) or sticky (st); a value of
// zeros ("00") unsets an indicator, so that the file falls back to the
// next rule; "ln=target" colors a link as what it points to.
//
// Extensions follow ls 9's case rule: "*.gz" matches "x.GZ" too, unless
// the same extension is given twice in different case with different
// colors, and then each matches only its own case.  Of the rules that
// match a name, the one given last wins.  The rules live in a trie of
// reversed extensions (extension_trie.hpp), so a name costs a walk of
// its last few bytes however many rules there are.
//
// A Color is a pointer into the LsColors, null for "no color"; two files
// have the same color when the pointers are equal, which is how a path
// whose name is colored as its directories is printed as one span.
#pragma once

#include "output/extension_trie.hpp"

#include <ioq.h>

#include <optional>
#include <string>
#include <string_view>

namespace ufind {

// What the color of one file depends on beyond its type and name.
struct ColorFacts {
    unsigned mode = 0;         // st_mode of the file; 0 when unknown
    unsigned links = 1;
    bool broken_link = false;  // a symlink whose target cannot be reached
};

class LsColors {
public:
    using Color = const std::string*;

    // Indicators, in ls's order.
    enum Indicator : unsigned char {
        left, right, end, reset, normal, file, directory, link, fifo, socket, block, character,
        missing, orphan, executable, door, setuid, setgid, sticky, other_writable,
        sticky_other_writable, capability, multi_hardlink, clear_line, count
    };

    // bfs's built-in defaults, then each rule of each spec in turn (the
    // syntax of LS_COLORS).  Check valid() before use.
    explicit LsColors(std::string_view spec, std::string_view more = {});

    // False when a spec could not be read ("*" with no '=', a trailing
    // backslash), which bfs refuses rather than guess.
    bool valid() const { return valid_; }

    // Whether the color of a file of this type depends on its mode or
    // link count (so the caller knows whether to stat it).
    bool needs_mode(ioq_type type) const;
    // "ln=target": a link is colored as its target.
    bool link_as_target() const { return link_as_target_; }
    // Whether a symlink's color depends on its target being reachable.
    bool colors_orphans() const { return color(orphan) != nullptr; }

    Color color_for(ioq_type type, const ColorFacts& facts, std::string_view name) const;
    Color directory_color() const { return color(directory); }
    // What names a path part that does not exist: "mi", else "or".
    Color missing_color() const { return color(missing) ? color(missing) : color(orphan); }

    // Appends text between the start and end sequences of color (quoted
    // for the terminal, terminal_text.hpp); nothing for empty text.
    void append_colored(std::string& out, Color color, std::string_view text) const;

private:
    Color color(Indicator indicator) const {
        return values_[indicator] ? &*values_[indicator] : nullptr;
    }
    void parse(std::string_view spec);

    std::optional<std::string> values_[count];  // nullopt: unset
    ExtensionTrie extensions_;
    bool link_as_target_ = false;
    bool valid_ = true;
};

} // namespace ufind
