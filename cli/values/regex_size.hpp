// An upper bound of the automaton glibc's regex compiler would build for a
// pattern, measured before it is asked to, so that -regex refuses a pattern
// whose compile would take minutes or overflow the stack.
//
//   pattern, syntax bits --estimate_regex_size--> RegexSize
//        { nodes, epsilons, empty_loops, depth }
//   fits_regex_compiler(size)?  yes --> re_compile_pattern
//                               no  --> "Regular expression too big"
//
// Why: glibc copies an interval's operand once per count (`x{1,n}` is n
// copies, n - 1 of them optional, nested counts multiply), then computes the
// epsilon closure of every node, recursively.  Measured on this machine
// (release build, 8 MiB stack; GNU find calls the same code and does the same):
//   `.{1,8000}`                   0.56 s, 505 MB
//   `(((a|){1,14}){1,14}){1,14}`  2.1 s, 1.1 GB
//   `((a*){1,100}){1,100}`        55 s, 12.7 GB
//   `(a*)*` 1000 times            7.4 s (a loop over something that can
//                                 match nothing is recomputed: cubic)
//   `((a*){1,200}){1,200}`        SIGSEGV, calc_eclosure_iter's recursion
//   30,000 nested `(`             SIGSEGV, the parser's recursion
// A pattern of up to 131,072 bytes (one argument's limit) that only names
// characters compiles in linear time, so the bounds below are on the things
// that grow worse than linearly.
//
// The estimate reads the pattern the way the syntax bits say (which of `(`
// or `\(` groups, `|` or `\|` alternates, whether intervals exist and how
// they are spelled, backslashes inside brackets) but does not validate it:
// a pattern glibc would reject is measured as best it can be, and glibc's
// own message reports what is wrong.  It counts every epsilon node as if
// all of them reached one another, so it overstates patterns whose
// optional parts are separated by characters (`a?b` repeated 3,000 times
// is refused though it would compile quickly); no pattern a person writes
// by hand comes near the bounds.
#pragma once

#include <cstdint>
#include <string_view>

namespace ufind {

struct RegexSize {
    // Automaton nodes after every interval is expanded.
    std::uint64_t nodes = 0;
    // Of those, the ones glibc follows without reading a character:
    // alternations, repetitions, optional copies, anchors, back-references.
    std::uint64_t epsilons = 0;
    // Repetitions (*, +, {m,}) of something that can match the empty string.
    std::uint64_t empty_loops = 0;
    // Deepest nesting of groups.
    std::uint64_t depth = 0;
};

// Reads `pattern` as glibc would under `syntax` (RE_SYNTAX_* bits).
RegexSize estimate_regex_size(std::string_view pattern, int syntax);

// Whether glibc compiles a pattern of this size in well under a second
// and a few hundred megabytes, on a stack of 1 MiB.
bool fits_regex_compiler(const RegexSize& size);

} // namespace ufind
