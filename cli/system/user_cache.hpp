// Names of users and groups by id, looked up once per id.
//
//   user_name(1000) --first time: getpwuid--> cache --> "alice"
//   user_name(1000) --after that: the cache--> "alice"
//
// getpwuid can read /etc/passwd or ask NSS over a socket on every call; a
// walk of 100,000 files owned by three users needs three lookups, not
// 100,000.  nullptr means the id has no name (-nouser, and %u prints the
// number instead).  Not thread-safe: the evaluator runs on one thread.
#pragma once

#include <sys/types.h>

#include <string>

namespace ufind {

const std::string* user_name(uid_t uid);
const std::string* group_name(gid_t gid);

} // namespace ufind
