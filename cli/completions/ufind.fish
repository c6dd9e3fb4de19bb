# fish completion for ufind(1).
#
# Installed into fish/vendor_completions.d.  The words are those of
# cli/command/primary_names.cpp, which the parser accepts; tests/docs/words_test.cpp
# checks that none is missing here.  Every word is an old-style option
# (-o, one dash); -x takes a free argument, -r a file name; bare arguments
# are starting points, directories.

complete -c ufind -f -a '(__fish_complete_directories (commandline -ct))' -d 'Starting point'

# The arguments of -exec, -execdir, -ok and -okdir's command: file names.
function __ufind_in_command
    set -l words (commandline -opc)
    set -l inside 0
    for word in $words[2..-1]
        switch $word
            case -exec -execdir -ok -okdir
                set inside 1
            case ';' '\\;' '+'
                set inside 0
        end
    end
    test $inside = 1
end
complete -c ufind -n __ufind_in_command -F

# Options before the starting points
complete -c ufind -s H -d 'Follow symbolic links named as starting points'
complete -c ufind -s L -d 'Follow every symbolic link'
complete -c ufind -s P -d 'Follow no symbolic link (the default)'
complete -c ufind -s D -x -a 'stats help cost exec opt rates search stat time tree all' -d 'Debug flags'
complete -c ufind -o O0 -d 'Optimisation level 0: as written'
complete -c ufind -o O1 -d 'Optimisation level 1 (default): cheap tests first'
complete -c ufind -o O2 -d 'Optimisation level 2'
complete -c ufind -o O3 -d 'Optimisation level 3'
complete -c ufind -o O4 -o Ofast -d 'Optimisation level 4 (as 3)'
complete -c ufind -s E -d 'As -regextype posix-extended'
complete -c ufind -s X -d 'Skip names xargs would misread'
complete -c ufind -s x -d 'As -xdev'
complete -c ufind -s f -r -F -d 'Walk PATH, even if it starts with a dash'
complete -c ufind -s s -d 'Sort names in each directory: deterministic output'

# Operators
complete -c ufind -o not -d 'Negate the next expression'
complete -c ufind -o a -o and -d 'Both expressions'
complete -c ufind -o o -o or -d 'Either expression'

# Positional options
complete -c ufind -o daystart -d 'Measure times from the start of today'
complete -c ufind -o follow -d 'Follow symbolic links (as -L)'
complete -c ufind -o nowarn -d 'Turn warnings off'
complete -c ufind -o regextype -x -d 'Regex syntax of later -regex and -iregex' \
    -a 'findutils-default ed emacs gnu-awk grep posix-awk awk posix-basic posix-egrep egrep posix-extended posix-minimal-basic sed'
complete -c ufind -o warn -d 'Turn warnings on'

# Global options
complete -c ufind -o d -d 'As -depth (deprecated)'
complete -c ufind -o depth -d 'Visit a directory after its contents'
complete -c ufind -o files0-from -r -F -d 'Read NUL-separated starting points from FILE'
complete -c ufind -o help -l help -d 'Print the help and exit'
complete -c ufind -o ignore_readdir_race -d 'Files vanishing during the walk are no error'
complete -c ufind -o maxdepth -x -d 'Descend at most LEVELS below the starting points'
complete -c ufind -o mindepth -x -d 'Ignore entries above depth LEVELS'
complete -c ufind -o mount -d 'As -xdev'
complete -c ufind -o noignore_readdir_race -d 'Files vanishing are errors (the default)'
complete -c ufind -o noleaf -d 'Accepted for compatibility; changes nothing'
complete -c ufind -o version -l version -d 'Print the version and exit'
complete -c ufind -o xdev -d 'Do not descend into other filesystems'

# Tests
complete -c ufind -o amin -x -d 'Accessed N minutes ago'
complete -c ufind -o anewer -r -F -d 'Accessed more recently than FILE was modified'
complete -c ufind -o atime -x -d 'Accessed N days ago'
complete -c ufind -o cmin -x -d 'Status changed N minutes ago'
complete -c ufind -o cnewer -r -F -d 'Status changed more recently than FILE was modified'
complete -c ufind -o context -x -d 'SELinux context (unsupported)'
complete -c ufind -o ctime -x -d 'Status changed N days ago'
complete -c ufind -o empty -d 'Empty file or directory'
complete -c ufind -o executable -d 'Executable (or searchable) by this user'
complete -c ufind -o false -d 'Always false'
complete -c ufind -o fstype -x -a '(string replace -r "^nodev" "" < /proc/filesystems | string trim)' -d 'On a filesystem of TYPE'
complete -c ufind -o gid -x -d 'Numeric group id N'
complete -c ufind -o group -x -a '(__fish_complete_groups)' -d 'Owned by group NAME'
complete -c ufind -o ilname -x -d 'As -lname, ignoring case'
complete -c ufind -o iname -x -d 'As -name, ignoring case'
complete -c ufind -o inum -x -d 'Inode number N'
complete -c ufind -o ipath -x -d 'As -path, ignoring case'
complete -c ufind -o iregex -x -d 'As -regex, ignoring case'
complete -c ufind -o iwholename -x -d 'As -ipath'
complete -c ufind -o links -x -d 'N hard links'
complete -c ufind -o lname -x -d 'Symbolic link whose target matches PATTERN'
complete -c ufind -o mmin -x -d 'Modified N minutes ago'
complete -c ufind -o mtime -x -d 'Modified N days ago'
complete -c ufind -o name -x -d 'Base name matches the shell PATTERN'
complete -c ufind -o newer -r -F -d 'Modified more recently than FILE'
# -newerXY: X of the file newer than Y of the reference (a, B, c, m; Y also t)
complete -c ufind -o neweraa -o neweraB -o newerac -o neweram -r -F -d 'Accessed more recently than REFERENCE'
complete -c ufind -o newerBa -o newerBB -o newerBc -o newerBm -r -F -d 'Born more recently than REFERENCE'
complete -c ufind -o newerca -o newercB -o newercc -o newercm -r -F -d 'Status changed more recently than REFERENCE'
complete -c ufind -o newerma -o newermB -o newermc -o newermm -r -F -d 'Modified more recently than REFERENCE'
complete -c ufind -o newerat -o newerBt -o newerct -o newermt -x -d 'Time newer than the DATE'
complete -c ufind -o nogroup -d 'Group id without a name'
complete -c ufind -o nouser -d 'User id without a name'
complete -c ufind -o path -x -d 'Whole path matches the shell PATTERN'
complete -c ufind -o perm -x -d 'Permission bits: MODE exactly, -MODE all, /MODE any'
complete -c ufind -o readable -d 'Readable by this user'
complete -c ufind -o regex -x -d 'Whole path matches the regular expression'
complete -c ufind -o samefile -r -F -d 'The same inode as FILE'
complete -c ufind -o size -x -d 'Size N units (b c w k M G), rounded up'
complete -c ufind -o true -d 'Always true'
complete -c ufind -o type -x -a '(__ufind_type_list)' -d 'Of type (comma-separated list)'
complete -c ufind -o uid -x -d 'Numeric user id N'
complete -c ufind -o used -x -d 'Accessed N days after its status last changed'
complete -c ufind -o user -x -a '(__fish_complete_users)' -d 'Owned by user NAME'
complete -c ufind -o wholename -x -d 'As -path'
complete -c ufind -o writable -d 'Writable by this user'
complete -c ufind -o xtype -x -a '(__ufind_type_list)' -d 'As -type, seen through symbolic links the other way'

# Actions
complete -c ufind -o delete -d 'Delete the entry (implies -depth)'
complete -c ufind -o exec -x -a '(__fish_complete_command)' -d 'Run COMMAND; {} is the path'
complete -c ufind -o execdir -x -a '(__fish_complete_command)' -d "As -exec, in the entry's directory"
complete -c ufind -o fjson -r -F -d 'As -json, into FILE'
complete -c ufind -o fls -r -F -d 'As -ls, into FILE'
complete -c ufind -o fprint -r -F -d 'As -print, into FILE'
complete -c ufind -o fprint0 -r -F -d 'As -print0, into FILE'
complete -c ufind -o fprintf -r -F -d 'As -printf, into FILE'
complete -c ufind -o json -d 'Print a JSON object per entry (JSON Lines)'
complete -c ufind -o ls -d 'List in ls -dils format'
complete -c ufind -o ok -x -a '(__fish_complete_command)' -d 'As -exec, asking first'
complete -c ufind -o okdir -x -a '(__fish_complete_command)' -d 'As -execdir, asking first'
complete -c ufind -o print -d 'Print the path and a newline'
complete -c ufind -o print0 -d 'Print the path and a NUL'
complete -c ufind -o printf -x -d 'Print FORMAT (%p path, %s size, ...)'
complete -c ufind -o prune -d 'Do not descend into this directory'
complete -c ufind -o quit -d 'Stop at once'

# bfs's extras
complete -c ufind -o exclude -d 'Never visit nor descend into entries matching EXPR'
complete -c ufind -o nohidden -d 'As -exclude -hidden'
complete -c ufind -o unique -d 'Visit each file once'
complete -c ufind -o noerror -d 'Do not print errors'
complete -c ufind -o hidden -d 'Name starts with a dot'
complete -c ufind -o Bmin -x -d 'Born N minutes ago'
complete -c ufind -o Btime -x -d 'Born N days ago'
complete -c ufind -o Bnewer -r -F -d 'Born more recently than FILE was modified'
complete -c ufind -o mnewer -r -F -d 'As -newer'
complete -c ufind -o since -o msince -x -d 'Modified after DATE'
complete -c ufind -o asince -x -d 'Accessed after DATE'
complete -c ufind -o Bsince -x -d 'Born after DATE'
complete -c ufind -o csince -x -d 'Status changed after DATE'
complete -c ufind -o sparse -d 'Fewer bytes allocated than its size'
complete -c ufind -o xattr -d 'Has extended attributes'
complete -c ufind -o xattrname -x -d 'Has the extended attribute NAME'
complete -c ufind -o acl -d 'Has a POSIX ACL beyond its mode'
complete -c ufind -o capable -d 'Has file capabilities'
complete -c ufind -o flags -x -d 'Inode flags in chattr letters'
complete -c ufind -o limit -x -d 'Stop after reaching this N times'
complete -c ufind -o exit -x -d 'Stop and exit with STATUS'
complete -c ufind -o printx -d 'Print paths escaped for xargs'
complete -c ufind -o rm -d 'As -delete'

# ufind's own options
complete -c ufind -s S -x -d 'Search strategy' -a 'hybrid\t"Depth 2 first, then depth first (default)" bfs\t"Breadth first" dfs\t"Depth first" ids\t"Iterative deepening" eds\t"Exponential deepening"'
complete -c ufind -s j -x -d 'Use N threads in all'
complete -c ufind -o color -d 'Color paths as ls does, from LS_COLORS'
complete -c ufind -o nocolor -d 'Never color'
complete -c ufind -o status -d "Show progress on the terminal's stderr"
complete -c ufind -l stats -d 'Print statistics of the walk on stderr at exit'

# The letters of -type and -xtype, after the list typed so far ("f,d,").
function __ufind_type_list
    set -l token (commandline -ct)
    set -l head (string match -r '^.*,' -- $token)
    for letter in b\tblock c\tcharacter d\tdirectory p\tfifo f\tfile l\tsymlink s\tsocket
        set -l bare (string sub -l 1 -- $letter)
        if not string match -q -- "*$bare,*" ",$head"
            echo "$head$letter"
        end
    end
end
