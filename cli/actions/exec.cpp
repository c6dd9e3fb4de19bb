#include "actions/exec.hpp"

#include "actions/spawn_command.hpp"
#include "expr/eval.hpp"
#include "system/diagnostics.hpp"
#include "values/path_parts.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

extern char** environ;

namespace ufind {
namespace {

// GNU find's cap on a batch (its "sensible" ARG_MAX), and room left for
// what the kernel adds on top of the arguments and environment.
constexpr std::size_t batch_cap = 128 * 1024;
constexpr std::size_t headroom = 2048;

std::size_t environment_size() {
    std::size_t size = 0;
    for (char** variable = environ; *variable; ++variable) {
        size += std::strlen(*variable) + 1 + sizeof(char*);
    }
    return size;
}

std::size_t batch_limit() {
    long arg_max = ::sysconf(_SC_ARG_MAX);
    std::size_t limit = arg_max > 0 ? static_cast<std::size_t>(arg_max) : batch_cap;
    std::size_t used = environment_size() + headroom;
    limit = limit > used ? limit - used : 4096;
    return std::min(limit, batch_cap);
}

// The directory execdir runs in: everything before the last component.
std::string_view directory_of(std::string_view path) {
    std::size_t end = path.size();
    while (end > 1 && path[end - 1] == '/') {
        --end;
    }
    std::size_t slash = path.substr(0, end).rfind('/');
    if (slash == std::string_view::npos) {
        return ".";
    }
    return slash == 0 ? std::string_view("/") : path.substr(0, slash);
}

enum class ExecMode : unsigned char { exec, execdir, ok, okdir };

// Where an -execdir child starts: a descriptor of the entry's directory,
// taken from the walk (so no symbolic link swapped in since the walk read it
// is followed, and no PATH_MAX limit applies), or for a starting point its
// directory by name.  A copy of the walk's descriptor: a batch outlives the
// entry it was taken for.
class ChildDirectory {
public:
    ChildDirectory() = default;
    ChildDirectory(const ChildDirectory&) = delete;
    ChildDirectory& operator=(const ChildDirectory&) = delete;
    ~ChildDirectory() { clear(); }

    // Takes the directory of the walk's current entry; false with errno set
    // when it cannot be reached any more.
    bool take(ioq::Walk& walk, std::string_view path, int depth) {
        clear();
        if (depth == 0) {
            name_.assign(directory_of(path));
            return true;
        }
        int dirfd = AT_FDCWD;
        const char* name = nullptr;
        int located = walk.entry_at(dirfd, name);
        if (located < 0) {
            errno = -located;
            return false;
        }
        fd_ = ::fcntl(dirfd, F_DUPFD_CLOEXEC, 3);
        return fd_ >= 0;
    }
    void clear() {
        if (fd_ >= 0) {
            ::close(fd_);
            fd_ = -1;
        }
        name_.clear();
    }
    void add_to(ChildSetup& setup) const {
        if (fd_ >= 0) {
            setup.directory_fd = fd_;
        } else {
            setup.directory = name_.c_str();
        }
    }

private:
    int fd_ = -1;
    std::string name_;
};

class ExecAction final : public Primary {
public:
    ExecAction(ExecMode mode, std::vector<std::string> words, bool batch)
        : mode_(mode), words_(std::move(words)), batch_(batch), limit_(batch_limit()) {
        for (const std::string& word : words_) {
            fixed_size_ += word.size() + 1 + sizeof(char*);
        }
    }

    bool evaluate(EvalContext& context) override {
        std::string_view path = context.entry->path();
        bool in_dir = mode_ == ExecMode::execdir || mode_ == ExecMode::okdir;
        if (in_dir) {
            argument_ = "./";
            argument_ += base_name(path);
            if (argument_ == ".//") {
                argument_ = "/";  // the root directory itself
            }
        } else {
            argument_.assign(path);
        }
        std::string_view directory = in_dir ? directory_of(path) : std::string_view();
        if (batch_) {
            add_to_batch(context, directory);
            return true;
        }
        args_.clear();
        for (std::size_t i = 0; i < words_.size(); ++i) {
            args_.push_back(substitute(words_[i]));
        }
        if ((mode_ == ExecMode::ok || mode_ == ExecMode::okdir) && !confirm(context)) {
            return false;
        }
        if (in_dir && !child_directory_.take(context.walk, path, context.entry->depth())) {
            report_path_error(path, errno);
            return false;
        }
        return run(context, args_) == 0;
    }

    void finish(EvalContext& context) override {
        if (batch_) {
            flush_batch(context);
        }
    }

    bool is_action() const override { return true; }

private:
    std::string substitute(const std::string& word) const {
        std::string out;
        std::size_t start = 0;
        for (std::size_t at; (at = word.find("{}", start)) != std::string::npos; start = at + 2) {
            out.append(word, start, at - start);
            out += argument_;
        }
        out.append(word, start, std::string::npos);
        return out;
    }

    void add_to_batch(EvalContext& context, std::string_view directory) {
        std::size_t cost = argument_.size() + 1 + sizeof(char*);
        bool new_directory = (mode_ == ExecMode::execdir) && directory != directory_;
        if (!pending_.empty() && (new_directory || fixed_size_ + pending_size_ + cost > limit_)) {
            flush_batch(context);
        }
        if (new_directory || pending_.empty()) {
            directory_.assign(directory);
            if (mode_ == ExecMode::execdir &&
                !child_directory_.take(context.walk, context.entry->path(),
                                       context.entry->depth())) {
                report_path_error(context.entry->path(), errno);
                directory_.clear();
                return;
            }
        }
        pending_.push_back(arena_.size());
        arena_ += argument_;
        arena_ += '\0';
        pending_size_ += cost;
    }

    void flush_batch(EvalContext& context) {
        if (pending_.empty()) {
            return;
        }
        args_.clear();
        // words_ ends with the "{}" the files stand for.
        for (std::size_t i = 0; i + 1 < words_.size(); ++i) {
            args_.push_back(words_[i]);
        }
        for (std::size_t offset : pending_) {
            args_.emplace_back(arena_.c_str() + offset);
        }
        pending_.clear();
        arena_.clear();
        pending_size_ = 0;
        if (run(context, args_) != 0) {
            mark_failed();  // find: a failed batch fails the whole run
        }
    }

    bool confirm(EvalContext& context) {
        context.outputs.flush_all();
        // The file by its path, as find names it, even for -okdir, whose
        // command gets ./NAME.
        std::string prompt = "< " + args_.front() + " ... ";
        prompt += context.entry->path();
        prompt += " > ? ";
        if (::write(STDERR_FILENO, prompt.data(), prompt.size()) < 0) {
            return false;
        }
        // Byte by byte, so that what follows the line stays for the next prompt.
        // A read error means "no", even after a 'y': the answer was not read.
        char first = 0;
        bool any = false;
        char c;
        ssize_t n;
        while ((n = ::read(STDIN_FILENO, &c, 1)) == 1 || (n < 0 && errno == EINTR)) {
            if (n == 1 && c == '\n') {
                break;
            }
            if (n == 1 && !any) {
                first = c;
                any = true;
            }
        }
        return n >= 0 && (first == 'y' || first == 'Y');
    }

    // Runs the command; its exit status, or -1 when it could not run or died.
    int run(EvalContext& context, std::vector<std::string>& args) {
        context.outputs.flush_all();
        argv_.clear();
        for (std::string& arg : args) {
            argv_.push_back(arg.data());
        }
        argv_.push_back(nullptr);
        ChildSetup setup;
        if (mode_ == ExecMode::execdir || mode_ == ExecMode::okdir) {
            child_directory_.add_to(setup);
        }
        // The answers come from stdin; the command must not eat them.
        setup.stdin_from_null = mode_ == ExecMode::ok || mode_ == ExecMode::okdir;
        pid_t pid = 0;
        int error = spawn_command(pid, argv_.data(), setup);
        if (error != 0) {
            // The child's complaint in find; the run's status is left alone.
            report_note(quote_path(args.front()) + ": " + std::strerror(error));
            return -1;
        }
        int status = 0;
        while (::waitpid(pid, &status, 0) < 0) {
            if (errno != EINTR) {
                report_error(std::string("waitpid: ") + std::strerror(errno));
                return -1;
            }
        }
        if (WIFSIGNALED(status)) {
            report_note(quote_path(args.front()) + " terminated by signal " +
                        std::to_string(WTERMSIG(status)));
            return -1;
        }
        return WEXITSTATUS(status);
    }

    ExecMode mode_;
    std::vector<std::string> words_;  // the command; with batch_, ends with "{}"
    bool batch_;
    std::size_t limit_;
    std::size_t fixed_size_ = 0;

    std::string argument_;   // what "{}" stands for, for the current file
    std::string directory_;  // the path of the batch's directory (execdir +)
    ChildDirectory child_directory_;  // where the next child runs (execdir)
    std::vector<std::string> args_;
    std::vector<char*> argv_;
    // The batch: NUL-terminated arguments in arena_, at the offsets in pending_.
    std::string arena_;
    std::vector<std::size_t> pending_;
    std::size_t pending_size_ = 0;
};

// -execdir and -okdir run commands found in PATH from directories of the
// walk; a relative PATH entry would run whatever the tree holds.
void check_path_is_absolute(const std::string& action) {
    const char* path = std::getenv("PATH");
    if (!path) {
        return;
    }
    any_path_entry(path, [&action](std::string_view entry) {
        if (entry.empty() || entry == ".") {
            fail_usage("The current directory is included in the PATH environment variable, "
                       "which is insecure in combination with the " + action +
                       " action of find.  Please remove the current directory from your $PATH "
                       "(that is, remove \".\", doubled colons, or leading or trailing colons)");
        }
        if (entry[0] != '/') {
            // Quoted as find quotes it (gnulib's quote(): '...' in the C locale).
            fail_usage("The relative path '" + std::string(entry) +
                       "' is included in the PATH environment variable, which is insecure in "
                       "combination with the " + action +
                       " action of find.  Please remove that entry from $PATH");
        }
        return false;
    });
}

// A batch's command line takes the names at its end only: another
// argument holding {} before them is refused, as find refuses it.
void reject_second_placeholder(const std::string& name, std::span<const std::string> before) {
    for (const std::string& word : before) {
        if (word.find("{}") != std::string::npos) {
            fail_usage("Only one instance of {} is supported with " + name + " ... +");
        }
    }
}

} // namespace

std::unique_ptr<Primary> parse_exec(ParseContext& context) {
    const std::string& name = context.name();
    ExecMode mode = name == "-exec"      ? ExecMode::exec
                    : name == "-execdir" ? ExecMode::execdir
                    : name == "-ok"      ? ExecMode::ok
                                         : ExecMode::okdir;
    bool prompts = mode == ExecMode::ok || mode == ExecMode::okdir;
    std::vector<std::string> words;
    bool batch = false;
    while (true) {
        if (context.at_end()) {
            fail_usage("missing argument to `" + name + "'");
        }
        const std::string& word = context.take();
        if (word == ";") {
            break;
        }
        if (word == "+" && !prompts && !words.empty() &&
            words.back().find("{}") != std::string::npos) {
            // A batch meant; find refuses a {} before the last first, then
            // a last word that is more than {} (rather than reading the `+'
            // as an argument, with a `;' still to come).
            reject_second_placeholder(name, std::span(words).first(words.size() - 1));
            if (words.back() != "{}") {
                fail_usage("In " + quote_path(name + " ... {} +") + " the " + quote_path("{}") +
                           " must appear by itself, but you specified " +
                           quote_path(words.back()));
            }
            batch = true;
            break;
        }
        words.push_back(word);
    }
    if (words.empty()) {
        // Only a ';' came: find calls the ';' the invalid argument.
        fail_usage("invalid argument `;' to `" + name + "'");
    }
    if (mode == ExecMode::execdir || mode == ExecMode::okdir) {
        check_path_is_absolute(name);
    }
    return std::make_unique<ExecAction>(mode, std::move(words), batch);
}

} // namespace ufind
