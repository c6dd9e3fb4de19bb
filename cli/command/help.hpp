// --help, --version and -D help: what ufind says about itself on stdout.
#pragma once

namespace ufind {

// Each returns the exit status: 0, or 1 after reporting that standard
// output could not take the text (find's "write error: ...").
int print_help();
int print_version();
int print_debug_flags();

} // namespace ufind
