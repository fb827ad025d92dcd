import sys,re
p='src/rules/mod.rs'
s=open(p).read()
for mod in sys.argv[1:]:
    if f"mod {mod};" in s: continue
    mods=re.findall(r"^(?:pub\(crate\) )?mod (\w+);$", s, re.M)
    after=max([m for m in mods if m < mod])
    line=re.search(rf"^(?:pub\(crate\) )?mod {after};$", s, re.M)
    s=s[:line.end()]+f"\npub(crate) mod {mod};"+s[line.end():]
    entry=f"    &{after}::RULE,\n"
    i=s.index(entry)+len(entry)
    s=s[:i]+f"    &{mod}::RULE,\n"+s[i:]
open(p,'w').write(s)
