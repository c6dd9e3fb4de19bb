// What every fuzz target of ufind shares: libFuzzer flags it cannot do
// without, added before libFuzzer reads its command line.
//
//   fuzz_parse corpus/parse -max_total_time=60
//        |
//        v  LLVMFuzzerInitialize -> add_default_flags(argc, argv, ...)
//   fuzz_parse corpus/parse -max_total_time=60 -close_fd_mask=3 [-artifact_prefix=$PWD/]
//
// The code under test reports errors and warnings on stderr (every invalid
// command line or format does) and --help writes to stdout: at tens of
// thousands of inputs a second that would drown libFuzzer's own lines.
// -close_fd_mask=3 has libFuzzer point fds 1 and 2 at /dev/null after
// keeping a duplicate of stderr for itself and for the sanitizers' reports,
// so crashes, timeouts and statistics stay visible while the code under
// test is silent.  Doing the same by hand around each call would lose
// libFuzzer's timeout and out-of-memory messages, which it prints from a
// signal handler while the call is still running.  Give -close_fd_mask=0
// to see what the code under test prints (when replaying one input, say).
//
// fuzz_support.cpp also sets UBSan's default to halt on the first finding:
// undefined behaviour must be a crash to libFuzzer, not a line it prints on
// the way to the next input.
#pragma once

namespace ufind_fuzz {

// Appends -close_fd_mask=3 to libFuzzer's flags unless -close_fd_mask is
// given.  With absolute_artifacts, for targets that change directory during
// a call (libFuzzer writes a crashing input from inside the call, relative
// to the working directory of that moment): -artifact_prefix=<cwd>/ unless
// one is given, and a relative -artifact_prefix or -exact_artifact_path
// made absolute.  libFuzzer reads its flags after LLVMFuzzerInitialize
// returns; argv[0] must stay as it is.
void add_default_flags(int* argc, char*** argv, bool absolute_artifacts);

} // namespace ufind_fuzz
