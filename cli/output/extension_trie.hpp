// ExtensionTrie: LS_COLORS's "*.ext=color" rules, looked up by a name's
// last bytes.
//
// The rules' extensions are stored reversed and lowercased in one trie,
// so a lookup walks the name backwards from its end and stops at the
// first byte no extension has there: "main.c" costs two steps however many
// rules LS_COLORS holds.  A node where an extension ends keeps the rule
// that matches there in any case and the rules that match only in their
// own case (see ls_colors.hpp for when that is).
//
//   "*.gz=31:*.tar.gz=33"   root -z-> . -g-> [gz] -.-> -r-> -a-> -t-> [tar.gz]
//
// Of every rule met on the way, the one given last wins.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ufind {

class ExtensionTrie {
public:
    // Adds a rule; rules added later take precedence.  A key holding a NUL
    // byte is ignored, since no file name can end in it.
    void add(std::string key, std::string value);
    // Decides which rules are case-sensitive and builds the trie; call
    // once, after the last add().
    void finish();

    // The color of the rule that wins for name, or null.
    const std::string* find(std::string_view name) const;

private:
    struct Rule {
        std::string key;
        std::string value;
        bool case_sensitive = false;
        bool overridden = false;  // a later rule's key ends this one's
    };
    struct Node {
        std::uint32_t first_edge = 0;
        std::uint32_t edge_count = 0;
        std::int32_t any_case_rule = -1;  // the last such rule ending here
        std::uint32_t first_exact = 0;    // in exact_rules_
        std::uint32_t exact_count = 0;
    };
    struct Edge {
        unsigned char byte;
        std::uint32_t node;
    };

    void consider(const Node& node, std::string_view suffix, std::int32_t& best) const;

    std::vector<Rule> rules_;  // in the order given
    std::vector<Node> nodes_;  // nodes_[0] is the root
    std::vector<Edge> edges_;  // each node's, sorted by byte
    std::vector<std::int32_t> exact_rules_;
    // The root's children by byte (0: none), since every lookup starts there.
    std::uint32_t root_children_[256] = {};
};

} // namespace ufind
