// Names shown on a terminal: what a file's owner chose cannot drive the
// terminal.
//
// A file name may hold any byte but '/' and NUL, escape sequences included:
// printed raw to a terminal, `touch $'\e]0;pwned\a'` retitles the window,
// and a name with a newline looks like two files.  Like GNU find, ufind
// shows each character that is not printable in the current locale as '?'
// when the output is a terminal; to a pipe or a file the bytes pass
// untouched, since scripts need the real names.
#pragma once

#include <string>
#include <string_view>

namespace ufind {

// Appends text to out with every non-printable character (control
// characters, bytes that are not valid in the locale's encoding) as '?'.
void append_printable(std::string& out, std::string_view text);

// Whether text needs append_printable at all (the common case is no).
bool is_printable(std::string_view text);

// How a name a file's owner chose is written: as it is (a pipe, a file),
// with '?' for what is not printable (a terminal, as GNU find), or
// $'...'-quoted when needed (under -color, as bfs).
enum class NameQuoting : unsigned char { raw, printable, quoted };

void append_name(std::string& out, std::string_view name, NameQuoting quoting);

// Appends text to out as bfs shows a name between color codes: as it is
// when every character is printable or white space, else in the shell's
// $'...' form, where an escape is \e and a stray byte \xFF, so that the
// name can neither end the color early nor drive the terminal.
void append_quoted_for_terminal(std::string& out, std::string_view text);

} // namespace ufind
