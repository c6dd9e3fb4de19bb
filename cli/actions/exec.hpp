// -exec, -execdir, -ok, -okdir: running a command for the files found.
//
//   -exec cmd a{}b ;     one child per file, every "{}" in every argument
//                        replaced by the path; true when it exits with 0
//   -exec cmd {} +       files gathered into batches of at most 128 KiB of
//                        arguments (and within ARG_MAX less the environment),
//                        run when full and after the walk; always true, but a
//                        failing batch makes ufind's exit status 1
//   -execdir ...         the same, run in the file's directory with "./name"
//                        (batches per directory)
//   -ok, -okdir          -exec/-execdir ';' after asking on stderr; the answer
//                        is a line read from stdin, yes when it starts with y/Y
//
// No shell is involved: the child is started by spawn_command.cpp (vfork,
// safe while libioq's worker threads run), which moves it to its directory
// and gives it back the descriptor limit ufind started with.  Every buffered output is flushed
// before a child runs, so its output lands after what ufind printed first.
// Batches keep their arguments in one reused arena: no allocation per file
// once it has grown.
#pragma once

#include "command/parse_context.hpp"
#include "expr/primary.hpp"

#include <memory>

namespace ufind {

std::unique_ptr<Primary> parse_exec(ParseContext& context);

} // namespace ufind
