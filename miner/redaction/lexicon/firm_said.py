"""What a sentence says a firm (or a work) is, right after its name ("X is
a design agency based in", "X is a 2001 film directed by"): one
definition, read by the verdict's keep, the name rules
(``names.a_firm_by_its_words``), the unsure rules, the sweep and the
second model. Apart from ``firms`` so that ``names``, which ``firms``
imports, reads it too."""

from __future__ import annotations

import re

#: What a firm is said to be, right after its name, the firm's noun ending
#: the clause: "X is a design agency based in", "X is a 501(c)3 that", "X
#: was a non-profit.", "X is the brainchild of". A person is said to be a
#: job ("X is a nurse", "X is a company director", "X is a charity
#: worker"), never an agency, a company or a charity; so the noun must be
#: followed by a stop, a comma (not a list's), the text's end or a clause
#: of its own ("based", "that", "which"), never by another word ("X is a company
#: director in Leeds") nor a preposition ("X is a nurse at the company":
#: no preposition or article before the noun either). Not the nouns a
#: person is named with or as (issue 36's read-back of alike22): "brand"
#: ("a brand ambassador"), "bank", "retailer", "manufacturer"; "firm" only
#: after a trade's word ("a law firm"): "she is a very firm, fair boss".
#: A comma that opens a list of a person's trades, the firm's or the work's
#: noun the first of them ("Anna Smith is a charity, arts and community
#: worker", "a film, TV and theatre actress", "a novel, short story,
#: poetry writer"): one or two words, then another comma or "and", "or",
#: "&" (review25). A firm's or a work's own comma goes on otherwise ("a
#: design agency, founded in", "a 2001 film, directed by").
_NOT_A_LIST_S_COMMA = (
    r",(?![ \t]*(?:[\w'’&/-]+[ \t]+)?[\w'’&/-]+(?:,|[ \t]+(?i:and|or|&)(?:[ \t]|\Z)))"
)
#: What stands between "a" and a firm's or a work's noun in neither
#: reading: a preposition, an article or a possessive, a clause's word
#: ("who", "that", "or"): the noun is then another's ("a nurse at the
#: company", "a student of film").
_NO_WORD_BETWEEN = (
    "at|of|for|in|with|from|to|by|on|the|a|an|his|her|their|its|my|our|your"
    "|who|whom|whose|that|which|where|when|while|or|but|nor|as|like|not|no|also|own"
    "|via|through|under|within|without|into|onto|over|across|about|after|before|between"
    "|among|around|behind|during|per|than"
)
_SAID_TO_BE_A_FIRM = re.compile(
    r"[ \t]+(?i:is|was)[ \t]+(?:(?i:a|an)[ \t]+"
    rf"(?:(?!(?i:{_NO_WORD_BETWEEN}"
    r"|very|so|quite|really|too|rather|pretty|extremely|one|one-man|one-woman|one-person"
    # Nor a clause of the person's after a job ("a nurse who works through
    # NHS Professionals agency", "a sole trader trading as Smith
    # Consultancy", "a plumber running Smith Plumbing company", "a
    # freelancer contracted through agency"): the firm there is hers.
    r"|runs?|running|owns?|owning"
    r"|works?|working|worked|manages?|managing|heads?|heading|helps?|helping"
    r"|supports?|supporting|volunteers?|volunteering)\b)"
    r"[\w'’&-]+[ \t]+){0,7}?"
    r"(?:(?i:agency|company|corporation|start-?up|non-?profit|charity|conglomerate"
    r"|consultancy|501\(c\)\(?3\)?)"
    r"|(?i:law|design|consulting|accounting|engineering|architecture|architectural|marketing"
    r"|advertising|investment|recruitment|trading|construction|logistics|software|research"
    r"|security|brokerage|audit|insurance|PR|tech)[ \t]+(?i:firm))"
    r"(?=[ \t]*(?:[.;!]|" + _NOT_A_LIST_S_COMMA + r"|\\n|\n|\Z"
    r"|[ \t](?i:based|headquartered|located|founded|that|which)\b))"
    r"|(?i:the[ \t]+brainchild[ \t]+of)\b"
    # A work, said the same way ("Zoolander is a 2001 American action-comedy
    # film directed by"): no one is a film, a novel or an album; the noun
    # ends the clause or a work's own clause follows it ("directed",
    # "starring", "by"), never another word ("X is a film director", "a
    # film critic", "a song writer"). A gap's word may be a placeholder
    # where the sweep reads it ("A 1973 <PERSON_1> ACTION-COMEDY FILM").
    r"|(?i:a|an)[ \t]+"
    rf"(?:(?!(?i:{_NO_WORD_BETWEEN}"
    r"|this|these|those|some|any|each|every"
    # Nor a preposition or a verb of the person's before the work's noun
    # ("a researcher writing about film", "a student studying film", "a
    # lecturer teaching film"): the work is what she does, not what she is.
    r"|studying|teaching|researching|lecturing"
    r"|writing|making|directing|producing|editing|filming|shooting|watching|reviewing"
    r"|composing|recording|singing|working|specialising|specializing|majoring|covering"
    r"|promoting|scoring|scripting|developing|creating|studies|teaches|writes|makes"
    r"|directs|produces|edits|reviews|loves|likes|enjoys|watches)\b)"
    r"(?:[\w'’&-]+|<[A-Z][A-Z0-9_]*>)[ \t]+){0,7}?"
    r"(?i:film|movie|novel|album|documentary|sitcom|song)"
    # Not where the noun opens a list of a person's trades ("Anna Smith is
    # a film, TV and theatre actress", "a novel, short story and poetry
    # writer"), a set a person builds ("a film set designer") or a trade
    # learnt ("a documentary by training"): a work's comma, "set" and "by"
    # go on as a work's ("a 2001 film, directed by", "a novel set in
    # Leeds", "a song by the Beatles").
    r"(?=[ \t]*(?:[.;!]|\\n|\n|\Z"
    r"|"
    + _NOT_A_LIST_S_COMMA
    + r"|[ \t](?i:directed|starring|written|produced|released|based|that|which|about)\b"
    r"|[ \t](?i:set)[ \t]+(?i:in|on|at|during|against|amid|amidst|among|around|between|after"
    r"|before|to|within|inside|across|over|under|aboard)\b"
    r"|[ \t](?i:by)\b(?![ \t]+(?i:trade|training|profession|day|night|nature|background"
    r"|choice|education|occupation|vocation)\b))))"
)


#: What stands before a name that is not the subject of the "is" after it
#: but an object inside the subject ("The sponsor for Maria Lopez was a
#: charity", "The charity supporting Anna Berg is a registered charity",
#: "The company that employs John Smith is a consultancy"): a preposition,
#: a verb's "-ing" form, or a relative's verb ("that employs").
_AN_OBJECT_BEFORE = re.compile(
    r"(?:\b(?i:of|for|to|with|by|from|at|on|about|against|behind|beside|besides|via|through"
    r"|toward|towards|into|onto|upon|among|between|without|within|under|over|near|like)"
    r"|\b(?i:that|who|which|whom)[ \t]+[a-z]+|\b(?P<ing>[a-z]+ing))[ \t]+$"
)


def said_to_be_a_firm(text: str, end: int, start: int | None = None) -> bool:
    """Whether the sentence says the name before ``end`` is a firm: "is a
    design agency based in", "is a 501(c)3 that invites" (no one is an
    agency: the verdict keeps it there, and the second model is not asked,
    ``second._names_a_thing``). With the name's ``start``: not a name that
    is an object before the "is" ("The sponsor for Maria Lopez was a
    charity": the sponsor is the charity, she is a person)."""
    if not _SAID_TO_BE_A_FIRM.match(text, end):
        return False
    if start is None:
        return True
    from miner.redaction.lexicon.wordclass import word_classes

    before = _AN_OBJECT_BEFORE.search(text, max(0, start - 32), start)
    if before is None:
        return True
    ing = before.group("ing")
    # "-ing" a verb only: "The charity supporting Anna Berg"; not a noun's
    # ("Good morning Quaxby is ...": no object).
    return bool(ing) and word_classes(ing) != frozenset({"VERB"})
