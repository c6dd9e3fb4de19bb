// --help and --version: what ufind says about itself on stdout.
#pragma once

namespace ufind {

void print_help();
void print_version();

} // namespace ufind
