// Fuzz target: ufind's command-line parser (cli/command/parse.cpp and the parse
// functions of every primary family it calls).
//
//   input bytes  "-name\0*.c\0-o\0-fprint\0out\0"
//        | split on NUL (each NUL ends an argument; a last piece without
//        v one counts when it is not empty)
//   {"-name", "*.c", "-o", "-fprint", "out"} --> parse_command_line
//        |
//        +--> Command: its invariants are checked below
//        +--> UsageError (message on stderr) or EarlyExit (--help, --version)
//
// Anything else, an uncaught exception included, is a crash to report.
//
// The parser has side effects, neutralised here:
//   - -fprint, -fprint0, -fprintf, -fls, -fjson (and any later -f...
//     action) create and truncate their file while parsing.  Each call
//     runs in a private directory made at start-up (the working directory
//     is switched there for the call and back after it, so that libFuzzer's
//     corpus and artifact paths keep their meaning), emptied after every
//     input that could have created something, and removed at exit (a
//     crash leaves it behind, holding what the crashing input created).
//     A file name with a '/' could still leave that directory ("/etc/x",
//     "../../x"), so inputs with one right after an argument starting with
//     "-f" are skipped: every -f... action takes its file as the next
//     argument, so this covers them all, and over-approximating (-false,
//     -follow, -fstype before a path) costs only a few skipped inputs.
//     /dev/stdout and /dev/stderr are let through: they name the process's
//     own streams and open nothing.
//   - -newer, -samefile and friends only stat the files they name.
//   - stdout (--help) and stderr (every error) go to /dev/null: see
//     fuzz_support.hpp.
#include "fuzz_support.hpp"

#include "command/parse.hpp"
#include "expr/expr.hpp"
#include "system/diagnostics.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

int original_directory = -1;
int private_directory = -1;
std::string private_path;

// Removes every entry of the private directory (the parser creates only
// regular files there).
void empty_private_directory() {
    // A descriptor of its own: a dup would share the read position, which
    // stays at the end after the first listing.
    int fd = ::openat(private_directory, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR* dir = fd >= 0 ? ::fdopendir(fd) : nullptr;
    if (!dir) {
        if (fd >= 0) {
            ::close(fd);
        }
        return;
    }
    std::vector<std::string> names;
    while (const struct dirent* entry = ::readdir(dir)) {
        std::string_view name = entry->d_name;
        if (name != "." && name != "..") {
            names.emplace_back(name);
        }
    }
    ::closedir(dir);
    for (const std::string& name : names) {
        ::unlinkat(private_directory, name.c_str(), 0);
    }
}

void remove_private_directory() {
    empty_private_directory();
    ::rmdir(private_path.c_str());
}

void check(bool condition, const char* what) {
    if (!condition) {
        std::fprintf(stderr, "fuzz_parse: invariant broken: %s\n", what);
        std::abort();
    }
}

bool is_unsafe_file_argument(std::string_view arg) {
    return arg.find('/') != std::string_view::npos && arg != "/dev/stdout" &&
           arg != "/dev/stderr";
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
    ufind_fuzz::add_default_flags(argc, argv, true);
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/ufind-fuzz-parse.XXXXXX";
    if (!::mkdtemp(pattern.data())) {
        std::perror("fuzz_parse: mkdtemp");
        std::exit(1);
    }
    private_path = pattern;
    original_directory = ::open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    private_directory = ::open(private_path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (original_directory < 0 || private_directory < 0) {
        std::perror("fuzz_parse: open");
        std::exit(1);
    }
    std::atexit(remove_private_directory);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::vector<std::string> args;
    std::string_view input(reinterpret_cast<const char*>(data), size);
    while (!input.empty()) {
        std::size_t end = input.find('\0');
        args.emplace_back(input.substr(0, end));
        input = end == std::string_view::npos ? std::string_view() : input.substr(end + 1);
    }
    bool may_create_files = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i].starts_with("-f")) {
            may_create_files = true;
            if (i + 1 < args.size() && is_unsafe_file_argument(args[i + 1])) {
                return -1;  // not added to the corpus
            }
        }
    }

    if (::fchdir(private_directory) != 0) {
        std::abort();
    }
    try {
        ufind::Command command = ufind::parse_command_line(args);
        check(command.expr != nullptr, "a parsed command has an expression");
        // From -O1, constants fold away what never runs, actions included
        // (`-false` alone folds to -false, its implicit -print dropped).
        check(command.optimisation_level > 0 || ufind::has_action(*command.expr),
              "at -O0 the expression has an action (-print added)");
        check(!command.roots.empty() || !command.files0_from.empty(),
              "there is a starting point or -files0-from");
        check(command.outputs != nullptr, "the outputs exist");
        check(command.min_depth >= 0 && command.max_depth >= -1, "depths in range");
        check(command.optimisation_level >= 0 && command.optimisation_level <= 3,
              "-O level in 0..3");
        ufind::reads_metadata_of_every_entry(*command.expr);
    } catch (const ufind::UsageError&) {
        // Reported on stderr, as it should be.
    } catch (const ufind::EarlyExit& early) {
        check(early.status == 0, "--help and --version exit with status 0");
    }
    if (::fchdir(original_directory) != 0) {
        std::abort();
    }
    if (may_create_files) {
        empty_private_directory();
    }
    return 0;
}
