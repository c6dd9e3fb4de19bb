#include "output/extension_trie.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace ufind {
namespace {

// ASCII only, whatever the locale, as GNU ls folds extensions.
char fold(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + ('a' - 'A')) : c; }

std::string folded(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), fold);
    return out;
}

} // namespace

void ExtensionTrie::add(std::string key, std::string value) {
    if (key.find('\0') != std::string::npos) {
        return;
    }
    rules_.push_back(Rule{std::move(key), std::move(value)});
}

void ExtensionTrie::finish() {
    // A later "*.gz" hides an earlier "*.gz" and "*.tar.gz" alike: they
    // take no part in deciding which rules are case-sensitive.
    for (std::size_t i = 0; i < rules_.size(); ++i) {
        for (std::size_t later = i + 1; later < rules_.size(); ++later) {
            if (std::string_view(rules_[i].key).ends_with(rules_[later].key)) {
                rules_[i].overridden = true;
                break;
            }
        }
    }
    // ls 9's "smart case": an extension given in two cases with two colors
    // becomes case-sensitive, in each of its cases.  Visited in the order
    // of the reversed keys, as bfs's trie visits them.
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < rules_.size(); ++i) {
        if (!rules_[i].overridden) {
            order.push_back(i);
        }
    }
    auto reversed = [](const std::string& key) { return std::string(key.rbegin(), key.rend()); };
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return reversed(rules_[a].key) < reversed(rules_[b].key);
    });
    std::unordered_map<std::string, std::size_t> previous_by_folded;
    for (std::size_t i : order) {
        auto [it, first] = previous_by_folded.try_emplace(folded(rules_[i].key), i);
        if (!first) {
            Rule& previous = rules_[it->second];
            if (previous.case_sensitive || previous.value != rules_[i].value) {
                previous.case_sensitive = true;
                rules_[i].case_sensitive = true;
            }
            it->second = i;
        }
    }

    // Build with a map per node, then lay each node's edges out flat.
    std::vector<std::map<unsigned char, std::uint32_t>> children(1);
    nodes_.assign(1, Node{});
    std::vector<std::vector<std::int32_t>> exact(1);
    for (std::size_t i = 0; i < rules_.size(); ++i) {
        if (rules_[i].overridden) {
            continue;
        }
        const std::string& key = rules_[i].key;
        std::uint32_t node = 0;
        for (auto c = key.rbegin(); c != key.rend(); ++c) {
            unsigned char byte = static_cast<unsigned char>(fold(*c));
            auto [it, added] = children[node].try_emplace(byte, static_cast<std::uint32_t>(nodes_.size()));
            if (added) {
                nodes_.emplace_back();
                children.emplace_back();
                exact.emplace_back();
            }
            node = it->second;
        }
        if (rules_[i].case_sensitive) {
            exact[node].push_back(static_cast<std::int32_t>(i));
        } else {
            nodes_[node].any_case_rule = static_cast<std::int32_t>(i);
        }
    }
    for (std::size_t node = 0; node < nodes_.size(); ++node) {
        nodes_[node].first_edge = static_cast<std::uint32_t>(edges_.size());
        nodes_[node].edge_count = static_cast<std::uint32_t>(children[node].size());
        for (auto [byte, child] : children[node]) {
            edges_.push_back(Edge{byte, child});
        }
        nodes_[node].first_exact = static_cast<std::uint32_t>(exact_rules_.size());
        nodes_[node].exact_count = static_cast<std::uint32_t>(exact[node].size());
        exact_rules_.insert(exact_rules_.end(), exact[node].begin(), exact[node].end());
    }
    for (auto [byte, child] : children[0]) {
        root_children_[byte] = child;
    }
}

inline void ExtensionTrie::consider(const Node& node, std::string_view suffix,
                                   std::int32_t& best) const {
    best = std::max(best, node.any_case_rule);
    for (std::uint32_t i = 0; i < node.exact_count; ++i) {
        std::int32_t rule = exact_rules_[node.first_exact + i];
        if (rule > best && rules_[static_cast<std::size_t>(rule)].key == suffix) {
            best = rule;
        }
    }
}

const std::string* ExtensionTrie::find(std::string_view name) const {
    if (nodes_.empty() || name.empty()) {
        return nodes_.empty() || nodes_[0].any_case_rule < 0
                   ? nullptr
                   : &rules_[static_cast<std::size_t>(nodes_[0].any_case_rule)].value;
    }
    std::int32_t best = nodes_[0].any_case_rule;
    std::size_t i = name.size() - 1;
    std::uint32_t child = root_children_[static_cast<unsigned char>(fold(name[i]))];
    while (child != 0) {
        const Node& node = nodes_[child];
        if (node.any_case_rule > best || node.exact_count > 0) {
            consider(node, name.substr(i), best);
        }
        if (i == 0) {
            break;
        }
        unsigned char byte = static_cast<unsigned char>(fold(name[--i]));
        child = 0;
        // Few edges below the root: a scan beats a search.
        for (const Edge* edge = edges_.data() + node.first_edge,
                        *last = edge + node.edge_count;
             edge != last; ++edge) {
            if (edge->byte == byte) {
                child = edge->node;
                break;
            }
        }
    }
    return best < 0 ? nullptr : &rules_[static_cast<std::size_t>(best)].value;
}

} // namespace ufind
