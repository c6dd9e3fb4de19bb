#include "values/regex_size.hpp"

#include <regex.h>

#include <algorithm>
#include <vector>

namespace ufind {
namespace {

// Counts saturate here: far past every bound, and squaring it cannot wrap.
constexpr std::uint64_t saturated = std::uint64_t{1} << 30;

// Each measured in the file comment's terms: 1,000 nested groups parse in
// 5 MB and about half a megabyte of stack; 262,144 nodes leave room for the
// longest argument of plain characters, and `((abc){300}){300}`, 270,000,
// compiles in 0.18 s and 110 MB; epsilons squared, times one plus the empty
// loops, is the closure work: 2^23 is `a?` 2,896 times (0.12 s, 130 MB) or
// `(a*)*` 128 times (0.04 s).
constexpr std::uint64_t max_depth = 1000;
constexpr std::uint64_t max_nodes = std::uint64_t{1} << 18;
constexpr std::uint64_t max_closure_work = std::uint64_t{1} << 23;

std::uint64_t add(std::uint64_t a, std::uint64_t b) { return std::min(a + b, saturated); }
std::uint64_t multiply(std::uint64_t a, std::uint64_t b) {
    return a != 0 && b > saturated / a ? saturated : std::min(a * b, saturated);
}

// What a piece of the pattern (an atom, a group, a branch) expands to.
struct Piece {
    std::uint64_t nodes = 0;
    std::uint64_t epsilons = 0;
    std::uint64_t empty_loops = 0;
    bool matches_empty = false;

    void append(const Piece& next) {
        nodes = add(nodes, next.nodes);
        epsilons = add(epsilons, next.epsilons);
        empty_loops = add(empty_loops, next.empty_loops);
    }
};

constexpr Piece character{1, 0, 0, false};
// An anchor or a back-reference: a node passed without reading.
constexpr Piece assertion{1, 1, 0, true};

// One open group: the alternatives closed so far, the branch being read,
// and the last piece of that branch, which a repetition applies to.
struct Group {
    Piece alternatives;
    std::uint64_t branch_count = 0;
    bool some_branch_matches_empty = false;
    Piece branch{0, 0, 0, true};
    Piece last;
    bool has_last = false;

    void push(const Piece& piece) {
        settle_last();
        last = piece;
        has_last = true;
    }

    void settle_last() {
        if (has_last) {
            branch.append(last);
            branch.matches_empty = branch.matches_empty && last.matches_empty;
            has_last = false;
        }
    }

    void end_branch() {
        settle_last();
        alternatives.append(branch);
        some_branch_matches_empty = some_branch_matches_empty || branch.matches_empty;
        ++branch_count;
        branch = Piece{0, 0, 0, true};
    }

    // The group as one piece of its parent: an alternation node between
    // each two branches, and a node for the group.
    Piece close() {
        end_branch();
        Piece whole = alternatives;
        whole.nodes = add(whole.nodes, branch_count);
        whole.epsilons = add(whole.epsilons, branch_count - 1);
        whole.matches_empty = some_branch_matches_empty;
        return whole;
    }
};

// x{min,max} (max < 0: unbounded) as glibc expands it: min copies, then
// max - min optional copies, or one starred copy when unbounded.
Piece repeat(const Piece& operand, std::uint64_t min, std::int64_t max) {
    Piece result;
    if (max < 0) {
        std::uint64_t copies = min + 1;
        result.nodes = add(multiply(operand.nodes, copies), 1);
        result.epsilons = add(multiply(operand.epsilons, copies), 1);
        result.empty_loops = add(multiply(operand.empty_loops, copies),
                                 operand.matches_empty ? 1 : 0);
        result.matches_empty = min == 0 || operand.matches_empty;
        return result;
    }
    auto copies = static_cast<std::uint64_t>(max);
    std::uint64_t optional = copies - std::min(min, copies);
    result.nodes = add(multiply(operand.nodes, copies), optional);
    result.epsilons = add(multiply(operand.epsilons, copies), optional);
    result.empty_loops = multiply(operand.empty_loops, copies);
    result.matches_empty = min == 0 || operand.matches_empty;
    return result;
}

class Estimator {
public:
    Estimator(std::string_view pattern, int syntax) : pattern_(pattern), syntax_(syntax) {
        groups_.emplace_back();
    }

    RegexSize run() {
        while (at_ < pattern_.size() && size_.depth <= max_depth) {
            step();
        }
        while (groups_.size() > 1) {  // unmatched: glibc reports it
            close_group();
        }
        Piece whole = groups_.back().close();
        size_.nodes = whole.nodes;
        size_.epsilons = whole.epsilons;
        size_.empty_loops = whole.empty_loops;
        return size_;
    }

private:
    bool has(reg_syntax_t bit) const { return (static_cast<reg_syntax_t>(syntax_) & bit) != 0; }

    void step() {
        char c = pattern_[at_++];
        bool escaped = c == '\\';
        if (escaped) {
            if (at_ == pattern_.size()) {
                return;  // a trailing backslash: glibc's error
            }
            c = pattern_[at_++];
        }
        token(c, escaped);
    }

    // One character, bare or after a backslash.  Whether `(`, `|`, `{`, `+`
    // and `?` are operators bare or escaped is the syntax's choice; `*`, the
    // anchors and lists are operators only bare, back-references and GNU's
    // word assertions only escaped.
    void token(char c, bool escaped) {
        auto is_operator = [&](reg_syntax_t bare_bit) { return escaped != has(bare_bit); };
        bool extended_ops = !has(RE_LIMITED_OPS);
        if (c == '(' && is_operator(RE_NO_BK_PARENS)) {
            open_group();
        } else if (c == ')' && is_operator(RE_NO_BK_PARENS) && groups_.size() > 1) {
            close_group();
        } else if ((c == '|' && is_operator(RE_NO_BK_VBAR) && extended_ops) ||
                   (c == '\n' && !escaped && has(RE_NEWLINE_ALT))) {
            groups_.back().end_branch();
        } else if (c == '{' && has(RE_INTERVALS) && is_operator(RE_NO_BK_BRACES)) {
            interval();
        } else if ((c == '+' || c == '?') && escaped == has(RE_BK_PLUS_QM) && extended_ops) {
            repetition(c == '+' ? 1 : 0, c == '+' ? -1 : 1);
        } else if (escaped) {
            bool back_reference = c >= '1' && c <= '9' && !has(RE_NO_BK_REFS);
            bool gnu_assertion = std::string_view("bB<>`'").find(c) != std::string_view::npos &&
                                 !has(RE_NO_GNU_OPS);
            groups_.back().push(back_reference || gnu_assertion ? assertion : character);
        } else if (c == '*') {
            repetition(0, -1);
        } else if (c == '^' || c == '$') {
            groups_.back().push(assertion);
        } else {
            if (c == '[') {
                skip_bracket();
            }
            groups_.back().push(character);
        }
    }

    void open_group() {
        groups_.emplace_back();
        size_.depth = std::max<std::uint64_t>(size_.depth, groups_.size() - 1);
    }

    void close_group() {
        Piece whole = groups_.back().close();
        groups_.pop_back();
        groups_.back().push(whole);
    }

    void repetition(std::uint64_t min, std::int64_t max) {
        Group& group = groups_.back();
        if (!group.has_last) {  // nothing to repeat: glibc takes it literally
            group.push(character);
            return;
        }
        group.last = repeat(group.last, min, max);
    }

    // Just after `{` or `\{`: min and max, or the brace is a character.
    void interval() {
        std::size_t start = at_;
        std::uint64_t min = 0;
        bool has_min = read_count(min);
        std::int64_t max = -1;
        if (at_ < pattern_.size() && pattern_[at_] == ',') {
            ++at_;
            std::uint64_t bound = 0;
            if (read_count(bound)) {
                max = static_cast<std::int64_t>(bound);
            }
        } else if (has_min) {
            max = static_cast<std::int64_t>(min);
        }
        std::string_view close = has(RE_NO_BK_BRACES) ? "}" : "\\}";
        bool empty = !has_min && max < 0 && (start == pattern_.size() || pattern_[start] != ',');
        if (empty ||
            pattern_.substr(at_, close.size()) != close) {
            at_ = start;
            groups_.back().push(character);
            return;
        }
        at_ += close.size();
        repetition(min, max);
    }

    bool read_count(std::uint64_t& count) {
        std::size_t start = at_;
        while (at_ < pattern_.size() && pattern_[at_] >= '0' && pattern_[at_] <= '9') {
            count = add(multiply(count, 10), static_cast<std::uint64_t>(pattern_[at_] - '0'));
            ++at_;
        }
        return at_ != start;
    }

    // Just after `[`: to just after the `]` that closes the list.  Its
    // first `]` (after an optional `^`) is a member; so is everything inside
    // [:class:], [=equivalent=] and [.collating.].
    void skip_bracket() {
        if (at_ < pattern_.size() && pattern_[at_] == '^') {
            ++at_;
        }
        if (at_ < pattern_.size() && pattern_[at_] == ']') {
            ++at_;
        }
        while (at_ < pattern_.size() && pattern_[at_] != ']') {
            char c = pattern_[at_];
            if (c == '[' && at_ + 1 < pattern_.size() &&
                std::string_view(":.=").find(pattern_[at_ + 1]) != std::string_view::npos) {
                char closing[] = {pattern_[at_ + 1], ']', '\0'};
                std::size_t end = pattern_.find(closing, at_ + 2);
                at_ = end == std::string_view::npos ? at_ + 1 : end + 2;
            } else if (c == '\\' && has(RE_BACKSLASH_ESCAPE_IN_LISTS)) {
                at_ += 2;
            } else {
                ++at_;
            }
        }
        at_ = std::min(at_ + 1, pattern_.size());
    }

    std::string_view pattern_;
    int syntax_;
    std::size_t at_ = 0;
    std::vector<Group> groups_;
    RegexSize size_;
};

} // namespace

RegexSize estimate_regex_size(std::string_view pattern, int syntax) {
    return Estimator(pattern, syntax).run();
}

bool fits_regex_compiler(const RegexSize& size) {
    std::uint64_t closure_work =
        multiply(multiply(size.epsilons, size.epsilons), add(size.empty_loops, 1));
    return size.depth <= max_depth && size.nodes <= max_nodes && closure_work <= max_closure_work;
}

} // namespace ufind
