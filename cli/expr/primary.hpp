// Primary: a test or action that carries state of its own (-size, -printf,
// -exec, ...), as one object per occurrence on the command line.
//
//   parse: "-size" "+3k" --parse_size--> SizeTest{greater, 3, 1024} --> Expr(primary)
//   walk:  evaluate(Expr) --> primary->evaluate(context) --> true/false
//   end:   finish(context)  (-exec ... + runs its last batch)
//
// The handful of primaries that need nothing but the entry's name and type
// stay plain ExprKinds in expr.hpp, evaluated inline; every family that needs
// metadata, formatting or a child process is a Primary in a file of its own.
// stat_mask() tells the parser which STATX_* fields to request: the command
// asks the walk for the union once per entry, so two tests never cost two
// statx calls.
#pragma once

namespace ufind {

struct EvalContext;

class Primary {
public:
    Primary() = default;
    virtual ~Primary() = default;
    Primary(const Primary&) = delete;
    Primary& operator=(const Primary&) = delete;

    virtual bool evaluate(EvalContext& context) = 0;
    // STATX_* fields evaluate() reads through EvalContext::stat(); 0 for none.
    virtual unsigned stat_mask() const { return 0; }
    // Whether it counts as an action, which suppresses the implicit -print.
    virtual bool is_action() const { return false; }
    // Called once after the walk (pending -exec ... + batches run here).
    virtual void finish(EvalContext&) {}
};

} // namespace ufind
