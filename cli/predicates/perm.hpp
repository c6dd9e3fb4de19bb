// -perm: permission bits, given in octal or as chmod's symbolic modes.
//
//   "644"      exact:    (mode & 07777) == 0644
//   "-u+w,g+r" at least: every one of the bits is set
//   "/111"     any:      one of the bits is set (no bits: always true)
//
// A symbolic mode is applied to 0 as chmod would apply it with umask 0
// (gnulib's mode_compile/mode_adjust, which find uses), once for files and
// once for directories, because X adds execute bits only to directories
// (and to files that have one already, which 0 has not).
#pragma once

#include "command/parse_context.hpp"
#include "expr/primary.hpp"

#include <sys/types.h>

#include <memory>
#include <optional>
#include <string_view>

namespace ufind {

struct PermSpec {
    enum Kind : unsigned char { exact, at_least, any };
    Kind kind = exact;
    mode_t file_bits = 0;       // for everything but directories
    mode_t directory_bits = 0;  // X counts for directories

    bool matches(mode_t mode, bool is_directory) const {
        mode_t bits = is_directory ? directory_bits : file_bits;
        switch (kind) {
        case at_least: return (mode & bits) == bits;
        case any: return bits == 0 || (mode & bits) != 0;
        case exact: break;
        }
        return (mode & 07777) == bits;
    }
};

// Applies a chmod-style mode ("u+x,g=r", "755") to base; nullopt when it is
// not a valid mode.
std::optional<mode_t> apply_mode(std::string_view mode, mode_t base, bool is_directory);

// -perm's argument, with its leading '-' or '/'; nullopt when invalid.
std::optional<PermSpec> parse_perm_spec(std::string_view text);

std::unique_ptr<Primary> parse_perm(ParseContext& context);

} // namespace ufind
