"""`python -m tools.town_sweep`: a tuning harness for issue 36's towns and jobs.

Towns: Faker ``city()`` draws of ``TUNE_LOCALES`` and mimesis's city list of
each ``MIMESIS_TUNE_LOCALES`` locale; jobs: Faker's ``job()`` lists of the
tune locales (tools/third_party_corpus.py; no report locale's list is read).
Each is set in every carrier sentence of ``TOWN_CARRIERS`` or
``JOB_CARRIERS`` (written here: sentence start, "X is lovely", "the X
branch", "X store", "moved from X", "X office called", a list, a tool
result's field, capitals, lower case...), and beside a person (a Faker name
of the tune locales, some of whose names are towns too) in
``PERSON_CARRIERS``, and run through the shipped policy by
``tools.firm_sweep``'s sweep: replaced / surfaced / kept per carrier and
per list, the replaced ones by the pass that replaced them, and the persons
beside (a town rule must leave none silent).

A tuning harness, not a measurement: ``-v`` prints the replaced values and
silent persons; ``--limit N`` sweeps N values of each list, spread over it
(every value without it).
"""

from __future__ import annotations

import sys

from tools.firm_sweep import Carrier, as_is, person_carriers, person_list, report, spread

TOWN_CARRIERS: tuple[Carrier, ...] = (
    ("start", "", " is lovely this time of year.", as_is),
    ("the X branch", "Is the ", " branch open on Sundays?", as_is),
    ("X store", "The ", " store had no chargers in stock.", as_is),
    ("moved from", "I moved from ", " last month, please update my account.", as_is),
    ("X office called", "", " office called me about the delivery.", as_is),
    ("in a list", "Our shops in Vienna, ", " and Lyon are closed today.", as_is),
    ("deliver to", "Can you deliver to ", " on Friday?", as_is),
    ("based in", "The warehouse is based in ", " so it takes two days.", as_is),
    ("flight to", "I need a flight to ", " next week.", as_is),
    ("near", "Is there a pickup point near ", "?", as_is),
    ("weather in", "The weather in ", " delayed the courier.", as_is),
    ("all caps", "MY PARCEL IS STUCK IN ", " AGAIN", str.upper),
    ("lower case", "the courier in ", " lost my parcel", str.lower),
    ("json:city", "", "", as_is),
    ("json:location", "", "", as_is),
)

JOB_CARRIERS: tuple[Carrier, ...] = (
    ("start", "", " here, I need a copy of my invoice.", as_is),
    ("I work as", "I work as a ", " and need the invoice in my name.", as_is),
    ("job title is", "My job title is ", " if that matters.", as_is),
    ("subject of called", "The ", " called about my order yesterday.", as_is),
    ("Occupation:", "Occupation: ", "", as_is),
    ("is a X at", "She is a ", " at the local hospital.", as_is),
    ("in a list", "Nurse, ", " and teacher get a discount?", as_is),
    ("as a X", "As a ", ", I order a lot from you.", as_is),
    ("Position:", "Position: ", "\nDepartment: Sales", as_is),
    ("our X", "Our ", " will sign for the parcel.", as_is),
    ("all caps", "I AM A ", " AND NEED HELP", str.upper),
    ("lower case", "im a ", " and my order is late", str.lower),
    ("json:job", "", "", as_is),
    ("json:occupation", "", "", as_is),
)

#: A person beside a town (or a job): the firm sweep's carriers, "in" a town.
PERSON_CARRIERS = person_carriers("town", at="in")


def town_lists(limit: int | None = None) -> dict[str, list[str]]:
    """List name ("city: <source>") -> towns: 150 Faker ``city()`` draws of
    each Faker tune locale, mimesis's whole city list of each tune locale."""
    from faker import Faker
    from mimesis import Address
    from mimesis.locales import Locale

    from tools.third_party_corpus import MIMESIS_TUNE_LOCALES, TUNE_LOCALES

    lists: dict[str, list[str]] = {}
    seen: set[str] = set()  # a town two lists share is swept once
    for locale in MIMESIS_TUNE_LOCALES:
        towns = sorted(set(Address(Locale(locale))._dataset["city"]) - seen)
        lists[f"city: mimesis {locale}"] = spread(towns, limit)
        seen.update(towns)
    for locale in TUNE_LOCALES:
        faker = Faker(locale)
        faker.seed_instance(36)
        drawn = sorted({faker.city() for _ in range(150)} - seen)
        lists[f"city: faker {locale}"] = spread(drawn, limit)
        seen.update(drawn)
    return lists


def job_lists(limit: int | None = None) -> dict[str, list[str]]:
    """List name ("job: <source>") -> Faker's whole job list of each Faker
    tune locale (several share en_US's: swept once)."""
    from faker import Faker

    from tools.third_party_corpus import TUNE_LOCALES

    lists: dict[str, list[str]] = {}
    seen: set[str] = set()
    for locale in TUNE_LOCALES:
        [jobs] = [p for p in Faker(locale).get_providers() if ".job." in type(p).__module__]
        titles = sorted(set(jobs.jobs) - seen)
        if titles:
            lists[f"job: faker {locale}"] = spread(titles, limit)
            seen.update(titles)
    return lists


def people_named_like_towns(count: int = 40) -> list[str]:
    """``count`` full names of the tune locales' Faker name lists whose
    surname or first name is a town GeoNames knows ("Lucia Paris")."""
    from faker import Faker

    from miner.redaction.lexicon.names import smaller_town_names
    from tools.third_party_corpus import TUNE_LOCALES

    towns = smaller_town_names()
    each = count // len(TUNE_LOCALES) + 1
    found: list[str] = []
    for locale in TUNE_LOCALES:
        faker = Faker(locale)
        faker.seed_instance(13)
        drawn = (faker.name() for _ in range(400))
        found += [n for n in dict.fromkeys(drawn) if any(w.casefold() in towns for w in n.split())][
            :each
        ]
    return found[:count]


def main() -> None:
    args = sys.argv[1:]
    limit = int(args[args.index("--limit") + 1]) if "--limit" in args else None
    people = person_list() + people_named_like_towns()
    if "--jobs-only" not in args:
        print("## towns\n")
        report(town_lists(limit), people, TOWN_CARRIERS, PERSON_CARRIERS, "-v" in args)
    if "--towns-only" not in args:
        print("\n## jobs\n")
        report(job_lists(limit), people, JOB_CARRIERS, PERSON_CARRIERS, "-v" in args)


if __name__ == "__main__":
    main()
