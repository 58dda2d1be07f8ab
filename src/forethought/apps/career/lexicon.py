"""Vocabularies the career rules match against: skills, project nouns, role words, industries.

The heuristic extractor only records a skill it can name from `SKILLS` (precision over recall: "I
know Sarah" is not a skill). Words that are also ordinary English ("Go", "C", "R", "Excel",
"Spring") match only with their capital letter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from forethought.text.words import vocabulary

__all__ = [
    "INDUSTRIES",
    "PROJECT_NOUNS",
    "ROLE_FIELDS",
    "ROLE_HEADS",
    "SKILLS",
    "SkillMention",
    "find_skills",
    "skill_pattern",
]

# One skill per "|"-separated entry: the canonical name, then "=" and comma-separated aliases.
_SKILL_TABLE = """
Python | Java | JavaScript=js | TypeScript=ts | C++=cpp | C# | Go=golang | Rust | Kotlin | Swift | Scala | Haskell
| Ruby | PHP | Perl | Lua | Elixir | Erlang | Clojure | OCaml | F# | Julia | MATLAB | Fortran | COBOL | Dart | C | R
| Bash=shell scripting | SQL | HTML=html5 | CSS=css3 | Solidity | Verilog | VHDL | Assembly
| React=react.js,reactjs | React Native | Angular | Vue=vue.js,vuejs | Svelte | Next.js=nextjs
| Node.js=node,nodejs | Express=express.js | Django | Flask | FastAPI | Spring | Spring Boot | Ruby on Rails=rails
| .NET=dotnet | Flutter | Android | iOS | Unity | Unreal Engine=unreal | pandas | NumPy
| scikit-learn=sklearn,scikit learn | TensorFlow | PyTorch | Keras | OpenCV | Hugging Face | LangChain
| Spark=pyspark,apache spark | Hadoop | Kafka | Airflow | dbt | Snowflake | Tableau | Power BI | Excel | Jupyter
| BeautifulSoup=beautiful soup,bs4 | Selenium | Jest | pytest | Cypress | GraphQL | REST APIs=rest api
| PostgreSQL=postgres | MySQL | SQLite | MongoDB=mongo | Redis | SQL Server | Oracle Database | Firebase | Supabase
| AWS=amazon web services | GCP=google cloud | Azure | Docker | Kubernetes=k8s | Terraform | Jenkins | GitHub Actions
| Git | Linux | CI/CD | Arduino | Raspberry Pi | ROS | LaTeX | machine learning=ml | deep learning
| NLP=natural language processing | computer vision | data analysis=data analytics
| data visualization=data visualisation | statistics=stats | data structures | algorithms | system design
| web development=web dev | cybersecurity=cyber security,infosec | cloud computing | Figma | Photoshop | Illustrator
| Blender | SolidWorks | AutoCAD | UX research | UI design | product management | project management
| public speaking | technical writing | Agile=scrum | Jira
"""


def _table(text: str) -> dict[str, tuple[str, ...]]:
    table: dict[str, tuple[str, ...]] = {}
    for entry in " ".join(text.split()).split(" | "):
        name, _, aliases = entry.strip().partition("=")
        table[name.strip()] = tuple(a.strip() for a in aliases.split(",") if a.strip())
    return table


# canonical name → aliases (the canonical name itself is always an alias)
SKILLS: dict[str, tuple[str, ...]] = _table(_SKILL_TABLE)
# Ordinary English words that are only skills when capitalised as a name.
_CASE_SENSITIVE = vocabulary("Go C R Excel Spring Express Swift Julia Assembly Unity Dart")

# Nouns that make "I built a ___" a project ("I made a mistake" is not one).
PROJECT_NOUNS = vocabulary(
    """app apps application website site webapp web-app engine game bot chatbot tool toolkit library framework
    compiler interpreter scraper crawler model classifier dashboard pipeline api backend frontend platform extension
    plugin add-on system simulator simulation tracker visualizer visualiser analyzer analyser emulator kernel database
    cli script scripts service microservice robot drone blog portfolio clone prototype server raytracer renderer
    editor calculator planner recommender detector parser shell assistant agent marketplace store shop generator
    converter manager predictor solver wallet mod sdk os firmware controller keyboard synthesizer"""
)
# Last words of a job title ("backend engineer", "data scientist").
ROLE_HEADS = vocabulary(
    """engineer developer scientist analyst designer manager researcher consultant architect administrator
    specialist intern programmer tester lead technician strategist marketer writer economist accountant banker
    trader quant statistician teacher professor pm sre devops swe sde founder entrepreneur advisor officer
    associate coordinator director hacker animator artist editor"""
)
# Fields of work that can stand for a role ("data engineering internships", "work in cybersecurity").
ROLE_FIELDS = vocabulary(
    "engineering development science research design analytics security management consulting marketing"
)
_INDUSTRY_TABLE = """
fintech=fintech | finance=finance | financial=finance | banking=finance | healthcare=healthcare
| health tech=healthcare | healthtech=healthcare | medtech=healthcare | biotech=biotech | gaming=gaming | games=gaming
| game industry=gaming | edtech=edtech | education=education | climate=climate | climate tech=climate
| cleantech=climate | energy=energy | defense=defense | defence=defense | crypto=crypto | web3=crypto
| adtech=advertising | advertising=advertising | consulting=consulting | e-commerce=e-commerce
| ecommerce=e-commerce | retail=retail | automotive=automotive | aerospace=aerospace | government=government
| public sector=government | nonprofit=nonprofit | non-profit=nonprofit | media=media | social media=social media
| insurance=insurance | gambling=gambling | oil and gas=oil and gas | robotics=robotics
"""
# an industry word as said → its canonical name
INDUSTRIES: dict[str, str] = {word: names[0] for word, names in _table(_INDUSTRY_TABLE).items()}


@dataclass(frozen=True)
class SkillMention:
    name: str  # canonical
    start: int
    end: int


def _alias_regex(alias: str) -> str:
    body = re.escape(alias).replace(r"\ ", r"[\s-]+")
    # Word-ish edges that also work for C++, C#, .NET and Node.js.
    return rf"(?<![\w+#.]){body}(?![\w+#]|\.\w)"


def _key(alias: str) -> str:
    return re.sub(r"[\s-]+", " ", alias.lower())


def _build() -> tuple[re.Pattern[str], re.Pattern[str], dict[str, str]]:
    canonical: dict[str, str] = {}
    insensitive: set[str] = set()
    sensitive: set[str] = set()
    for name, aliases in SKILLS.items():
        for alias in (name, *aliases):
            if name in _CASE_SENSITIVE and alias == name:
                sensitive.add(alias)
                canonical[alias] = name
            else:
                insensitive.add(alias.lower())
                canonical[_key(alias)] = name
    return (
        re.compile("|".join(_alias_regex(a) for a in sorted(insensitive, key=len, reverse=True)), re.I),
        re.compile("|".join(_alias_regex(a) for a in sorted(sensitive, key=len, reverse=True))),
        canonical,
    )


_INSENSITIVE, _SENSITIVE, _CANONICAL = _build()


def find_skills(text: str) -> list[SkillMention]:
    """Skills named in `text`, in order, longest alias first where two overlap."""
    found = [
        SkillMention(_CANONICAL[_key(m.group(0))], m.start(), m.end())
        for m in _INSENSITIVE.finditer(text)
        if _key(m.group(0)) in _CANONICAL
    ]
    for match in _SENSITIVE.finditer(text):
        if not any(m.start <= match.start() < m.end for m in found):
            found.append(SkillMention(_CANONICAL[match.group(0)], match.start(), match.end()))
    return sorted(found, key=lambda m: m.start)


def skill_pattern(name: str) -> re.Pattern[str]:
    """A regex for a skill's name and aliases (for checking drafts); unknown names match literally."""
    aliases = [name, *SKILLS.get(name, ())]
    flags = 0 if name in _CASE_SENSITIVE else re.I
    return re.compile("|".join(_alias_regex(a) for a in sorted(aliases, key=len, reverse=True)), flags)
