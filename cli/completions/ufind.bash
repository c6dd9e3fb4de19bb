# bash completion for ufind(1).
#
# Installed as bash-completion/completions/ufind; self-contained (it needs
# none of bash-completion's helpers), so it may also be sourced directly.
# The words are those of cli/command/primary_names.cpp, which the parser accepts;
# tests/docs/words_test.cpp checks that none is missing here.
#
# What is completed where:
#   -name PATTERN, -size N ...   nothing (free text)
#   -type/-xtype                 the type letters, after a comma too
#   -S, -regextype, -D, -O       their fixed values
#   -fprint FILE ...             file names
#   -exec COMMAND ...            a command, then file names
#   a word starting with '-'     every word of the expression
#   anything else                directories (starting points) before the
#                                expression starts, words after

_ufind_words=(
    # Operators
    -not -a -and -o -or
    # Positional options
    -daystart -follow -nowarn -regextype -warn
    # Global options
    -d -depth -files0-from -help --help -ignore_readdir_race -maxdepth
    -mindepth -mount -noignore_readdir_race -noleaf -version --version -xdev
    # Tests
    -amin -anewer -atime -cmin -cnewer -context -ctime -empty -executable
    -false -fstype -gid -group -ilname -iname -inum -ipath -iregex
    -iwholename -links -lname -mmin -mtime -name -newer
    -neweraa -neweraB -newerac -neweram -newerat
    -newerBa -newerBB -newerBc -newerBm -newerBt
    -newerca -newercB -newercc -newercm -newerct
    -newerma -newermB -newermc -newermm -newermt
    -nogroup -nouser -path -perm -readable -regex -samefile -size -true
    -type -uid -used -user -wholename -writable -xtype
    # Actions
    -delete -exec -execdir -fjson -fls -fprint -fprint0 -fprintf -json -ls
    -ok -okdir -print -print0 -printf -prune -quit
    # ufind's own options
    -S -j -color -nocolor -status --stats
    # bfs's extras
    -exclude -nohidden -unique -noerror -hidden -Bmin -Btime -Bnewer -mnewer
    -since -asince -Bsince -csince -msince -sparse -xattr -xattrname -acl -capable -flags
    -limit -exit -printx -rm
)

# Options that only stand before the starting points.
_ufind_leading=(-H -L -P -D -O0 -O1 -O2 -O3 -O4 -Ofast -s -E -X -x -f)

_ufind_regextypes="findutils-default ed emacs gnu-awk grep posix-awk awk posix-basic
    posix-egrep egrep posix-extended posix-minimal-basic sed"

_ufind()
{
    local cur=${COMP_WORDS[COMP_CWORD]}
    local prev=
    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
    COMPREPLY=()

    # Inside -exec/-ok ... ; the first word is a command, the rest files.
    local i word command_at=-1
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        case $word in
            -exec | -execdir | -ok | -okdir) command_at=$((i + 1)) ;;
            ';' | '\;' | '+') command_at=-1 ;;
        esac
    done
    if ((command_at == COMP_CWORD)); then
        COMPREPLY=($(compgen -c -- "$cur"))
        return 0
    elif ((command_at >= 0)); then
        COMPREPLY=($(compgen -f -- "$cur"))
        return 0
    fi

    # The second argument of -fprintf is a format: nothing to offer.
    if ((COMP_CWORD > 1)) && [[ ${COMP_WORDS[COMP_CWORD - 2]} == -fprintf ]]; then
        return 0
    fi

    case $prev in
        -type | -xtype)
            # A comma-separated list: complete the letter after the last comma.
            local head=${cur%,*} letter
            [[ $cur == *,* ]] && head+=, || head=
            for letter in b c d p f l s; do
                # find refuses a letter twice in one list.
                [[ ,$head == *,$letter,* ]] || COMPREPLY+=("$head$letter")
            done
            COMPREPLY=($(compgen -W "${COMPREPLY[*]}" -- "$cur"))
            return 0
            ;;
        -S)
            COMPREPLY=($(compgen -W "hybrid bfs dfs ids eds" -- "$cur"))
            return 0
            ;;
        -regextype)
            COMPREPLY=($(compgen -W "$_ufind_regextypes" -- "$cur"))
            return 0
            ;;
        -D)
            COMPREPLY=($(compgen -W "stats help cost exec opt rates search stat time tree all" \
                -- "$cur"))
            return 0
            ;;
        -fstype)
            COMPREPLY=($(compgen -W "$(awk '{print $NF}' /proc/filesystems 2>/dev/null)" \
                -- "$cur"))
            return 0
            ;;
        -user)
            COMPREPLY=($(compgen -u -- "$cur"))
            return 0
            ;;
        -group)
            COMPREPLY=($(compgen -g -- "$cur"))
            return 0
            ;;
        -files0-from | -fjson | -fls | -fprint | -fprint0 | -fprintf | -anewer | \
            -cnewer | -newer | -newer[aBcm][aBcm] | -samefile)
            compopt -o filenames 2>/dev/null
            COMPREPLY=($(compgen -f -- "$cur"))
            return 0
            ;;
        -name | -iname | -path | -ipath | -wholename | -iwholename | -lname | \
            -ilname | -regex | -iregex | -printf | -context | -newer[aBcm]t | \
            -amin | -atime | -cmin | -ctime | -mmin | -mtime | -used | -size | \
            -perm | -links | -inum | -uid | -gid | -maxdepth | -mindepth | -j)
            return 0
            ;;
    esac

    # Has the expression started?  Starting points come before it, and the
    # leading options before them.
    local in_expression=0 seen_path=0
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        case $word in
            -H | -L | -P | -s | -O[0-3]) ;;
            -D | -S | -j) ((i++)) ;;
            -S* | -j*) ;;
            -* | '(' | '!' | '\(' | '\!')
                in_expression=1
                break
                ;;
            *) seen_path=1 ;;
        esac
    done

    if [[ $cur == -* ]]; then
        local candidates=("${_ufind_words[@]}")
        ((in_expression || seen_path)) || candidates+=("${_ufind_leading[@]}")
        COMPREPLY=($(compgen -W "${candidates[*]}" -- "$cur"))
    elif ((in_expression)); then
        COMPREPLY=($(compgen -W "${_ufind_words[*]} ( ) !" -- "$cur"))
    else
        compopt -o filenames 2>/dev/null
        COMPREPLY=($(compgen -d -- "$cur"))
    fi
    return 0
}

complete -F _ufind ufind
