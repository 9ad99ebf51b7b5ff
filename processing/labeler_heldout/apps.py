"""Three small web apps (project tracker, recipe site, account settings) and a tiny server for them.

They behave like real apps where it matters to a labeler: buttons tint on hover, saving
shows a spinner before the result, transient toasts appear and fade, links underline,
and the pages are long enough to scroll.
"""

from __future__ import annotations

import http.server
import threading
from functools import partial
from pathlib import Path

_COMMON = """
<style>
body{font-family:'DejaVu Sans',Arial,sans-serif;margin:0;background:#f6f7fb;color:#1d2330;font-size:16px}
header{background:#28335a;color:#fff;padding:14px 28px;font-size:21px;font-weight:bold}
main{padding:22px 40px}
button{font-size:16px;padding:9px 18px;border-radius:6px;border:1px solid #3b5bdb;background:#4263eb;color:#fff;cursor:pointer}
button:hover{background:#2f4ac4}
button.plain{background:#fff;color:#3b5bdb}
button.plain:hover{background:#e7ecff}
a{color:#1c4fd8;text-decoration:none;cursor:pointer}
a:hover{text-decoration:underline}
input{font-size:16px;padding:8px 10px;border:1px solid #aab;border-radius:5px;width:320px}
input:focus{outline:2px solid #4263eb}
label{display:block;margin:14px 0 5px;font-weight:bold}
.row{background:#fff;border:1px solid #dde;border-radius:6px;padding:12px 16px;margin:10px 0;display:flex;justify-content:space-between;align-items:center}
.row:hover{background:#f0f3ff}
#toast{position:fixed;right:30px;bottom:30px;background:#2b8a3e;color:#fff;padding:12px 20px;border-radius:8px;opacity:0;transition:opacity .3s}
.spin{display:inline-block;width:14px;height:14px;border:3px solid #ccd;border-top-color:#4263eb;border-radius:50%;animation:s 0.7s linear infinite;vertical-align:middle}
@keyframes s{to{transform:rotate(360deg)}}
.tabs a{margin-right:26px;font-size:17px}
.muted{color:#667}
</style>
<div id="toast"></div>
<script>
function toast(text){const t=document.getElementById('toast');t.textContent=text;t.style.opacity=1;
 clearTimeout(window._tt);window._tt=setTimeout(()=>t.style.opacity=0,1400);}
function busy(button,text,ms,then){const old=button.textContent;button.disabled=true;
 button.innerHTML='<span class="spin"></span> '+text;setTimeout(()=>{button.textContent=old;button.disabled=false;then();},ms);}
</script>
"""

TRACKER = _COMMON + """
<title>Tracker</title><header>Tracker · Project Apollo</header><main>
<div class="tabs"><a onclick="show('open')">Open tasks</a><a onclick="show('done')">Finished</a><a onclick="show('all')">All tasks</a></div>
<p class="muted" id="view">Showing open tasks</p>
<label for="q">Search tasks</label><input id="q" onkeydown="if(event.key==='Enter'){find()}">
<p><button class="plain" onclick="newTask()">New task</button></p>
<div id="form" style="display:none"><label for="title">Task title</label><input id="title">
<label for="owner">Assignee</label><input id="owner">
<p><button id="create" onclick="busy(this,'Saving',700,create)">Create task</button></p></div>
<div id="list"></div></main>
<script>
let tasks=[['Write release notes','Maya',0],['Fix login timeout','Omar',0],['Update the roadmap','Lena',1],
 ['Review design mockups','Ivan',0],['Plan sprint demo','Maya',0],['Archive old tickets','Omar',1],
 ['Migrate the database','Lena',0],['Prepare budget sheet','Ivan',0],['Test mobile layout','Maya',0],
 ['Clean up dashboards','Omar',0],['Renew certificates','Lena',1],['Interview candidates','Ivan',0]];
let mode='open',query='';
function render(){const l=document.getElementById('list');l.innerHTML='';
 tasks.forEach((t,i)=>{if(mode==='open'&&t[2])return;if(mode==='done'&&!t[2])return;
  if(query&&!t[0].toLowerCase().includes(query))return;
  const d=document.createElement('div');d.className='row';
  d.innerHTML='<span>'+t[0]+' <span class="muted">· '+t[1]+'</span></span>'+
   (t[2]?'<span class="muted">Finished</span>':'<button class="plain" onclick="finish('+i+',this)">Mark done</button>');
  l.appendChild(d);});}
function show(m){mode=m;document.getElementById('view').textContent='Showing '+({open:'open tasks',done:'finished tasks',all:'all tasks'})[m];
 document.getElementById('list').innerHTML='<p><span class="spin"></span> Loading</p>';setTimeout(render,500);}
function find(){query=document.getElementById('q').value.toLowerCase();
 document.getElementById('list').innerHTML='<p><span class="spin"></span> Searching</p>';setTimeout(render,600);}
function newTask(){document.getElementById('form').style.display='block';}
function create(){tasks.unshift([document.getElementById('title').value,document.getElementById('owner').value,0]);
 document.getElementById('form').style.display='none';render();toast('Task created');}
function finish(i,b){busy(b,'Saving',500,()=>{tasks[i][2]=1;render();toast('Marked as done');});}
render();
</script>
"""

RECIPES = _COMMON + """
<title>Recipes</title><header>Good Food Recipes</header><main id="m"></main>
<script>
const recipes={'Lemon pasta':'Pasta, lemon, butter, parmesan.','Tomato soup':'Tomatoes, onion, basil, cream.',
 'Chickpea curry':'Chickpeas, coconut milk, spinach, spices.','Banana bread':'Bananas, flour, eggs, walnuts.',
 'Greek salad':'Cucumber, tomato, feta, olives.','Mushroom risotto':'Rice, mushrooms, stock, thyme.',
 'Apple crumble':'Apples, oats, butter, cinnamon.','Fish tacos':'Cod, tortillas, cabbage, lime.',
 'Veggie lasagne':'Pasta sheets, courgette, ricotta, sauce.','Pancakes':'Flour, milk, eggs, maple syrup.',
 'Lentil stew':'Lentils, carrots, celery, cumin.','Berry smoothie':'Berries, yoghurt, honey, ice.'};
function home(list){let h='<label for="q">Find a recipe</label><input id="q" onkeydown="if(event.key===\\'Enter\\'){go()}"> '+
 '<button onclick="go()">Search</button><h2>'+(list?'Results':'Popular this week')+'</h2>';
 (list||Object.keys(recipes)).forEach(n=>{h+='<div class="row"><a onclick="open_(this.textContent)">'+n+'</a><span class="muted">'+recipes[n]+'</span></div>';});
 h+='<p class="muted">End of list</p>';document.getElementById('m').innerHTML=h;}
function go(){const q=document.getElementById('q').value.toLowerCase();
 document.getElementById('m').innerHTML='<p><span class="spin"></span> Looking for recipes</p>';
 setTimeout(()=>home(Object.keys(recipes).filter(n=>(n+recipes[n]).toLowerCase().includes(q))),700);}
function open_(n){document.getElementById('m').innerHTML='<p><span class="spin"></span> Loading recipe</p>';
 setTimeout(()=>{document.getElementById('m').innerHTML='<p><a onclick="home()">Back to recipes</a></p><h2>'+n+'</h2><p>'+recipes[n]+
 '</p><label for="servings">Servings</label><input id="servings" value="2"><p><button onclick="busy(this,\\'Saving\\',600,()=>toast(\\'Recipe saved\\'))">Save recipe</button> '+
 '<button class="plain" onclick="toast(\\'Link copied\\')">Share</button></p>'+'<p class="muted">Method</p>'.repeat(1)+
 '<p>'+'Prepare everything, cook gently, taste and season. '.repeat(30)+'</p><h3>Comments</h3><label for="c">Your comment</label><input id="c"> <button onclick="toast(\\'Comment posted\\')">Post comment</button>';},600);}
home();
</script>
"""

SETTINGS = _COMMON + """
<title>Account</title><header>My Account</header><main>
<div class="tabs"><a onclick="tab('profile')">Profile</a><a onclick="tab('security')">Security</a><a onclick="tab('alerts')">Notifications</a></div>
<div id="m"></div></main>
<script>
const pages={profile:'<h2>Profile</h2><label for="name">Display name</label><input id="name" value="Sam Lee">'+
 '<label for="email">Email address</label><input id="email" value="sam@example.org"><label for="city">City</label><input id="city">'+
 '<label for="bio">About you</label><input id="bio"><p><button onclick="busy(this,\\'Saving\\',800,()=>toast(\\'Profile updated\\'))">Save changes</button></p>',
 security:'<h2>Security</h2><label for="old">Current password</label><input id="old" type="password">'+
 '<label for="new">New password</label><input id="new" type="password"><p><button onclick="busy(this,\\'Updating\\',800,()=>toast(\\'Password changed\\'))">Update password</button></p>'+
 '<p><button class="plain" onclick="toast(\\'Signed out of other devices\\')">Sign out everywhere</button></p>',
 alerts:'<h2>Notifications</h2>'+['Weekly summary','New comments','Product news','Security alerts','Team mentions','Billing reminders','Event invitations','Survey requests']
  .map(n=>'<div class="row"><span>'+n+'</span><button class="plain" onclick="this.textContent=this.textContent===\\'Turn off\\'?\\'Turn on\\':\\'Turn off\\';toast(\\'Preference saved\\')">Turn off</button></div>').join('')};
function tab(n){document.getElementById('m').innerHTML='<p><span class="spin"></span> Loading</p>';setTimeout(()=>document.getElementById('m').innerHTML=pages[n],450);}
document.getElementById('m').innerHTML=pages.profile;
</script>
"""

APPS = {"tracker": TRACKER, "recipes": RECIPES, "settings": SETTINGS}


class AppServer:
    """Serves the apps as static pages from `folder` on a free local port, in a background thread."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        for name, html in APPS.items():
            (folder / f"{name}.html").write_text("<!doctype html><meta charset='utf-8'>" + html, encoding="utf-8")
        handler = partial(_QuietHandler, directory=str(folder))
        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def url(self, app: str) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/{app}.html"

    def __enter__(self) -> AppServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # a request per page is not worth a line
        pass
