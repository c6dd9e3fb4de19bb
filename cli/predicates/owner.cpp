#include "predicates/owner.hpp"

#include "expr/eval.hpp"
#include "system/user_cache.hpp"
#include "values/comparison.hpp"

#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <string>

namespace ufind {
namespace {

enum class Owner : unsigned char { user, group };

class OwnerTest final : public Primary {
public:
    OwnerTest(Owner owner, Comparison comparison) : owner_(owner), comparison_(comparison) {}
    bool evaluate(EvalContext& context) override {
        const struct statx* buf = context.stat();
        return buf && comparison_.matches(owner_ == Owner::user ? buf->stx_uid : buf->stx_gid);
    }
    unsigned stat_mask() const override { return owner_ == Owner::user ? STATX_UID : STATX_GID; }

private:
    Owner owner_;
    Comparison comparison_;
};

// -nouser, -nogroup: an id no name belongs to.
class NoNameTest final : public Primary {
public:
    explicit NoNameTest(Owner owner) : owner_(owner) {}
    bool evaluate(EvalContext& context) override {
        const struct statx* buf = context.stat();
        if (!buf) {
            return false;
        }
        return owner_ == Owner::user ? user_name(buf->stx_uid) == nullptr
                                     : group_name(buf->stx_gid) == nullptr;
    }
    unsigned stat_mask() const override { return owner_ == Owner::user ? STATX_UID : STATX_GID; }

private:
    Owner owner_;
};

bool all_digits(const std::string& text) {
    return !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
}

// A name that is all digits is an id, up to INT_MAX as in find (whose
// error for more names the number and ERANGE).
unsigned long long numeric_id(const std::string& digits) {
    errno = 0;
    unsigned long long id = std::strtoull(digits.c_str(), nullptr, 10);
    if (errno == ERANGE || id > static_cast<unsigned long long>(INT_MAX)) {
        fail_usage(digits + ": " + std::strerror(ERANGE));
    }
    return id;
}

std::unique_ptr<Primary> by_name(ParseContext& context, Owner owner) {
    const std::string& name = context.take();
    if (name.empty()) {
        fail_usage(owner == Owner::user
                       ? "The argument to -user should not be empty"
                       : "argument to -group is empty, but should be a group name");
    }
    Comparison comparison;
    if (owner == Owner::user) {
        if (const struct passwd* entry = ::getpwnam(name.c_str())) {
            comparison.value = entry->pw_uid;
        } else if (all_digits(name)) {
            comparison.value = numeric_id(name);
        } else {
            fail_usage(quote_path(name) + " is not the name of a known user");
        }
    } else {
        if (const struct group* entry = ::getgrnam(name.c_str())) {
            comparison.value = entry->gr_gid;
        } else if (all_digits(name)) {
            comparison.value = numeric_id(name);
        } else {
            fail_usage(quote_path(name) + " is not the name of an existing group");
        }
    }
    return std::make_unique<OwnerTest>(owner, comparison);
}

std::unique_ptr<Primary> by_number(ParseContext& context, Owner owner) {
    const std::string& argument = context.take();
    std::optional<Comparison> comparison = parse_comparison(argument);
    if (!comparison) {
        context.invalid(argument);
    }
    return std::make_unique<OwnerTest>(owner, *comparison);
}

} // namespace

std::unique_ptr<Primary> parse_user(ParseContext& context) { return by_name(context, Owner::user); }
std::unique_ptr<Primary> parse_group(ParseContext& context) {
    return by_name(context, Owner::group);
}
std::unique_ptr<Primary> parse_uid(ParseContext& context) { return by_number(context, Owner::user); }
std::unique_ptr<Primary> parse_gid(ParseContext& context) {
    return by_number(context, Owner::group);
}
std::unique_ptr<Primary> parse_nouser(ParseContext&) {
    return std::make_unique<NoNameTest>(Owner::user);
}
std::unique_ptr<Primary> parse_nogroup(ParseContext&) {
    return std::make_unique<NoNameTest>(Owner::group);
}

} // namespace ufind
