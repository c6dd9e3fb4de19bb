// Fuzz target: -perm's modes (cli/predicates/perm.cpp), octal and symbolic.
//
//   input bytes --> parse_perm_spec(text)          --> nullopt or PermSpec
//               \-> apply_mode(text, base, is_dir)  for a few bases, both
//                                                   kinds of file
//
// Invariants checked beyond "no crash":
//   - apply_mode never sets a bit outside 07777, whatever the base within
//     07777; an octal mode ignores the base and equals its value;
//   - parse_perm_spec's bits are apply_mode's on 0 (with the leading '-'
//     or '/' taken off), within 07777, and the same for files and
//     directories when the mode is octal;
//   - a spec matches the mode it describes (exact: equal; -: all bits
//     set; /: one bit set, or none asked for), and a "-" spec matches a
//     mode with every bit set.
#include "fuzz_support.hpp"

#include "predicates/perm.hpp"

#include <sys/stat.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace {

void check(bool condition, const char* what) {
    if (!condition) {
        std::fprintf(stderr, "fuzz_perm: invariant broken: %s\n", what);
        std::abort();
    }
}

bool is_octal(std::string_view text) {
    return !text.empty() && text[0] >= '0' && text[0] <= '9';
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
    ufind_fuzz::add_default_flags(argc, argv, false);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);

    constexpr mode_t bases[] = {0, 0644, 0755, 07777, 02710};
    for (mode_t base : bases) {
        for (bool is_directory : {false, true}) {
            std::optional<mode_t> mode = ufind::apply_mode(text, base, is_directory);
            if (!mode) {
                continue;
            }
            check((*mode & ~07777u) == 0, "apply_mode sets no bit outside 07777");
            if (is_octal(text)) {
                check(*mode == ufind::apply_mode(text, 0, false), "an octal mode ignores the base");
            }
        }
    }

    std::optional<ufind::PermSpec> spec = ufind::parse_perm_spec(text);
    if (!spec) {
        return 0;
    }
    check((spec->file_bits & ~07777u) == 0 && (spec->directory_bits & ~07777u) == 0,
          "-perm's bits are within 07777");
    std::string_view mode_text = text;
    if (spec->kind != ufind::PermSpec::exact) {
        mode_text.remove_prefix(1);
    }
    check(ufind::apply_mode(mode_text, 0, false) == spec->file_bits &&
              ufind::apply_mode(mode_text, 0, true) == spec->directory_bits,
          "-perm's bits are the mode applied to 0");
    if (is_octal(mode_text)) {
        check(spec->file_bits == spec->directory_bits, "octal: the same bits for directories");
    }
    check(spec->matches(S_IFREG | spec->file_bits, false), "a spec matches its own file mode");
    check(spec->matches(S_IFDIR | spec->directory_bits, true),
          "a spec matches its own directory mode");
    if (spec->kind == ufind::PermSpec::at_least) {
        check(spec->matches(S_IFREG | 07777, false), "-MODE matches a mode with every bit");
    }
    return 0;
}
