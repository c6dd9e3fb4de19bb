#include "help.hpp"

#include <unistd.h>

#include <string_view>

namespace ufind {
namespace {

void write_stdout(std::string_view text) {
    while (!text.empty()) {
        ssize_t n = ::write(STDOUT_FILENO, text.data(), text.size());
        if (n <= 0) {
            return;
        }
        text.remove_prefix(static_cast<std::size_t>(n));
    }
}

} // namespace

void print_help() {
    write_stdout(
        "Usage: ufind [-H] [-L] [-P] [-Olevel] [-D debugopts] [-S bfs|dfs|ids|eds] [-jN] [-s] "
        "[path...] [expression]\n"
        "\n"
        "Default path is the current directory; default expression is -print.\n"
        "Expression may consist of: operators, options, tests, and actions.\n"
        "\n"
        "Operators (decreasing precedence; -and is implicit where no others are given):\n"
        "      ( EXPR )   ! EXPR   -not EXPR   EXPR1 -a EXPR2   EXPR1 -and EXPR2\n"
        "      EXPR1 -o EXPR2   EXPR1 -or EXPR2   EXPR1 , EXPR2\n"
        "\n"
        "Positional options (always true):\n"
        "      -daystart -follow -nowarn -regextype -warn\n"
        "\n"
        "Normal options (always true, specified before other expressions):\n"
        "      -depth -files0-from FILE -maxdepth LEVELS -mindepth LEVELS\n"
        "      -mount -noleaf -xdev -ignore_readdir_race -noignore_readdir_race\n"
        "\n"
        "Tests (N can be +N or -N or N):\n"
        "      -amin N -anewer FILE -atime N -cmin N -cnewer FILE -context CONTEXT\n"
        "      -ctime N -empty -false -fstype TYPE -gid N -group NAME -ilname PATTERN\n"
        "      -iname PATTERN -inum N -iwholename PATTERN -iregex PATTERN\n"
        "      -links N -lname PATTERN -mmin N -mtime N -name PATTERN -newer FILE\n"
        "      -nouser -nogroup -path PATTERN -perm [-/]MODE -regex PATTERN\n"
        "      -readable -writable -executable\n"
        "      -wholename PATTERN -size N[bcwkMG] -true -type [bcdpflsD] -uid N\n"
        "      -used N -user NAME -xtype [bcdpfls]\n"
        "\n"
        "Actions:\n"
        "      -delete -print0 -printf FORMAT -fprintf FILE FORMAT -print\n"
        "      -fprint0 FILE -fprint FILE -ls -fls FILE -prune -quit\n"
        "      -exec COMMAND ; -exec COMMAND {} + -ok COMMAND ;\n"
        "      -execdir COMMAND ; -execdir COMMAND {} + -okdir COMMAND ;\n"
        "\n"
        "ufind's own options: -S STRATEGY (bfs, dfs, ids, eds), -jN (threads), -s (sorted).\n");
}

void print_version() {
    write_stdout("ufind 0.1.0 (the language of GNU find 4.9, on libioq)\n");
}

} // namespace ufind
