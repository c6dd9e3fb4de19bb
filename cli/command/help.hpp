// --help, --version and -D help: what ufind says about itself on stdout.
#pragma once

namespace ufind {

void print_help();
void print_version();
void print_debug_flags();

} // namespace ufind
