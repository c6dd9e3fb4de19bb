// -json and -fjson FILE: one JSON object per entry, a line each (JSON Lines).
//
//   {"path":"./src/a.c","name":"a.c","depth":2,"type":"file","size":1234,
//    "blocks":8,"mode":"0644","perms":"-rw-r--r--","uid":1000,"gid":1000,
//    "user":"alice","group":"alice","links":1,"inode":393,"device":"259:2",
//    "atime":"2026-11-30T08:05:02.123456789+00:00","atime_epoch":1796025902.123456789,
//    ...,"btime":null,"btime_epoch":null}
//
// Names are bytes, JSON strings are Unicode: a name that is not valid
// UTF-8 is written with U+FFFD for each invalid byte, and its exact bytes
// follow in base64 as "<field>_b64" (path_b64, name_b64, target_b64), so
// that no file is misnamed or lost.  Metadata follows -H/-L as the other
// tests do; when it cannot be read the entry still appears, with "error"
// (strerror's text) in place of the metadata fields.
#pragma once

#include "command/parse_context.hpp"
#include "expr/primary.hpp"

#include <memory>
#include <string>
#include <string_view>

namespace ufind {

// Appends text as a JSON string (quotes included); false if it was not
// valid UTF-8 and U+FFFD stands for some of its bytes.
bool append_json_string(std::string& out, std::string_view text);

// Appends the standard base64 encoding of bytes.
void append_base64(std::string& out, std::string_view bytes);

std::unique_ptr<Primary> parse_json(ParseContext& context);

} // namespace ufind
