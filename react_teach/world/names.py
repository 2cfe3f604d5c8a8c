"""Names for a fictional world, built from syllable tables: easy to read, and nobody's real name.

A name is two or three syllables (an onset, a vowel, sometimes a coda). `Namer` hands out each name once, and
refuses any name that is a word of the course corpus (so no title collides with it, and no real person or place
the course mentions comes back) or one of a short list of famous names.

    >>> import random
    >>> n = Namer(random.Random(7), banned={"velo"})
    >>> a, b = n.root(), n.root()
    >>> a != b and a.istitle() and a.casefold() not in {"velo"}
    True
"""
from __future__ import annotations

import random
import re

ONSETS = ["b", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "b", "d", "k", "l", "m",
          "n", "r", "s", "t", "v", "br", "dr", "th", "st", "tr"]
VOWELS = ["a", "e", "i", "o", "u", "a", "e", "o", "a", "i"]
CODAS = ["", "", "n", "r", "l", "s", "m", "n", "r"]

# Famous or real names a syllable table can spell; the course corpus's own words are banned as well.
FAMOUS = {"mara", "lena", "anna", "nora", "dora", "tina", "sara", "rome", "troy", "lima", "oslo", "bern", "riga",
          "thor", "odin", "zeus", "hera", "mars", "loki", "gaia", "nike", "kali", "ra", "set", "isis", "hades",
          "kant", "marx", "bach", "dante", "plato", "homer", "tesla", "edison", "newton", "darwin", "stalin",
          "hitler", "lenin", "mao", "gandhi", "moses", "noah", "maria", "elsa", "olaf", "thea", "gina", "tom",
          "tim", "ben", "sam", "dan", "don", "ron", "ken", "kim", "lee", "bob", "ted", "ned", "fred", "greg",
          "sting", "bono", "prince", "drake", "adele", "shakira", "beyonce", "tolkien", "frodo", "gandalf",
          "narnia", "sauron", "vader", "yoda", "luke", "leia", "neo", "trinity", "shrek", "simba", "nemo",
          "dune", "hamlet", "othello", "faust", "tarzan", "zorro", "gotham", "krypton", "sparta", "athena",
          "apollo", "venus", "pluto", "titan", "atlas", "orion", "luna", "sol", "terra", "nova", "vega",
          "mimir", "ymir", "nadar", "baldur", "freya", "frigg", "brahma", "vishnu", "shiva", "rama", "sita",
          "kama", "buddha", "zola", "dali", "goya", "monet", "manet", "rodin", "verdi", "bizet", "ravel", "satie",
          "degas", "kafka", "gogol", "hugo", "dumas", "sade", "rumi", "lorca", "neruda", "borges", "tagore",
          "basho", "solon", "nero", "otto", "titus", "cato", "ovid", "hesiod", "pindar", "sappho", "medusa",
          "hermes", "ares", "eros", "helios", "selene", "tethys", "rhea", "kronos", "dido", "pele", "messi",
          "kaka", "lara", "tara", "sora", "goku", "zelda", "mario", "luigi", "sonic", "kirby", "pikachu", "elvis",
          "madonna", "rihanna", "bono", "moby", "tupac", "eminem", "lorde", "sia", "enya", "abba", "toto",
          "rumba", "samba", "salsa", "tango", "sushi", "pasta", "pizza", "tofu", "sake", "vodka", "tesla",
          "nokia", "sony", "lego", "ikea", "audi", "fiat", "kia", "mazda", "subaru", "volvo", "toyota", "honda",
          "nike", "puma", "zara", "prada", "gucci", "rolex", "adidas", "samsung", "kodak", "yahoo", "google"}


# No triple letters (they read badly), and no piece of a lookup keyword: `lookup[born]` must reach the birth
# sentence, not a name such as "Velborn".
FORBIDDEN = re.compile(r"(.)\1\1|born|marri|found|river|studio|label|publish|releas|daughter|son$|came|set|record")


def corpus_words(texts) -> set[str]:
    """Every word of the given texts, case-folded: a generated name may not be one of them."""
    return {w.casefold() for t in texts for w in re.findall(r"[^\W\d_]+", t)}


class Namer:
    """Unique readable names from one random stream (the world's), so one seed always spells the same names."""

    def __init__(self, rng: random.Random, banned: set[str] = frozenset()):
        self.rng, self.banned, self.used = rng, {b.casefold() for b in banned} | FAMOUS, set()

    def _spell(self, syllables: int) -> str:
        r = self.rng
        word = r.choice(VOWELS) if r.random() < 0.15 else ""  # a few names start with a vowel: Odrin, Avel
        for i in range(syllables):
            word += r.choice(ONSETS) + r.choice(VOWELS)
        return (word + r.choice(CODAS)).capitalize()  # only the last syllable is closed: names stay easy to say

    def root(self, syllables: tuple[int, ...] = (2, 2, 3)) -> str:
        """A fresh word never handed out before in this world, at least four letters long."""
        while True:
            word = self._spell(self.rng.choice(syllables))
            key = word.casefold()
            if len(word) >= 4 and key not in self.used and key not in self.banned and not FORBIDDEN.search(key):
                self.used.add(key)
                return word
