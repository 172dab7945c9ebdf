"""The words people use when they write a credential down, in English, German, French,
Spanish, Italian, Portuguese and Dutch: the names of credentials, the words that join a name
to its value ("is", "lautet", "c'est", ":"), the things a code opens, numbers spelled out,
and the ordinary words that follow "the password is" without being one ("too short",
"abgelaufen", "trop court").

`core/credential_phrases.py` reads sentences with them; each list is data, so a language or a
word is added here without touching a pattern.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from cortexgraph_vault.core.english import STOP_WORDS, phrases, word_set


def alternation(phrases: Iterable[str]) -> str:
    """A regex alternation of phrases, longest first (so "pin code" wins over "pin"); a space
    in a phrase matches any run of spaces or a hyphen, an apostrophe either apostrophe."""
    parts = (
        "".join(_PHRASE_CHARS.get(ch) or re.escape(ch) for ch in phrase)
        for phrase in sorted(set(phrases), key=len, reverse=True)
    )
    return "(?:" + "|".join(parts) + ")"


_PHRASE_CHARS = {" ": r"[\s-]+", "'": "['’]", "-": r"[\s-]?"}


# Names of a secret that may be any word at all: "the password is marmalade".
PASSWORD_NAMES = phrases(
    """
    password, passwd, pwd, passcode, pass code, passphrase, pass phrase, passwort, kennwort,
    mot de passe, mdp, contraseña, contrasena, senha, palavra-passe, palavra passe, parola d'ordine,
    wachtwoord
    """
)
# Shorthands read as a password name only before `:`/`=` or "is": "pass: Hunter4!", "pw is …".
PASSWORD_SHORTHANDS = ("pass", "pw")
# A password name may end a compound: "WLAN-Passwort", "Routerpasswort", "wifi-wachtwoord".
PASSWORD_COMPOUND_ENDS = ("passwort", "kennwort", "wachtwoord")

# Names of a code made of digits: "PIN", "alarm code", "Geheimzahl", "code PIN", "combinación".
NUMBER_NAMES = phrases(
    """
    pin, pin code, pin number, pin-nummer, pin-code, pincode, puk, puk code, sim pin, cvv, cvv2,
    cvc, card security code, combination, combo, lock combination, one-time code, one time code,
    otp, geheimzahl, geheimnummer, kombination, zahlenkombination, türcode, tuercode, haustürcode,
    alarmcode, zugangscode, torcode, tresorcode, zahlencode, sicherheitscode, entsperrcode,
    geheimcode, digicode, code pin, code secret, code d'accès, code d'acces, code d'entrée,
    code de sécurité, code de déverrouillage, combinaison, código pin, codigo pin, código secreto,
    código de acceso, código de seguridad, código de desbloqueo, número pin, combinación,
    codice pin, codice segreto, codice di accesso, codice d'accesso, codice di sicurezza,
    codice di sblocco, combinazione, código de acesso, código de segurança, código de desbloqueio,
    combinação, deurcode, toegangscode, kluiscode, poortcode, cijfercode, beveiligingscode,
    ontgrendelcode, combinatie
    """
)
# What a code opens, named before it ("the door code") or after it ("the code to the door").
OPENED_BY_CODE = phrases(
    """
    alarm, house alarm, burglar alarm, door, front door, back door, gate, front gate, garage,
    garage door, safe
    """
)
# "X code" in English (and German written apart): the X says what the code opens or proves.
CODE_QUALIFIERS = OPENED_BY_CODE + phrases(
    """
    key safe, lock, locker, lockbox, padlock, bike lock, entry, building entry, keypad, unlock,
    access, security, verification, 2fa, two-factor, backup, recovery, secret, apartment, house,
    buzzer, intercom, entry phone, wifi, wi-fi, sim, phone, screen
    """
)
# The word "code" alone names a secret only with what it opens: "the code for the alarm",
# "le code de la porte", "il codice dell'allarme", "de code van de deur".
CODE_WORDS = ("code", "codes", "código", "codigo", "codice")

# Things a code opens: "the alarm is 8842", "use 8842 for the alarm", "the code to the safe".
LOCKED_THINGS = OPENED_BY_CODE + phrases(
    """
    alarm system, alarm panel, locker, padlock, lock, bike lock, keypad, lockbox, key safe, key box,
    building, entrance, intercom, mailbox, alarmanlage, tür, haustür, tor, garagentor, tresor, schließfach, schloss, fahrradschloss, vorhängeschloss, briefkasten, eingang,
    gebäude, alarme, porte, porte d'entrée, portail, coffre, coffre-fort, casier, cadenas, immeuble,
    interphone, alarma, puerta, portón, portal, garaje, caja fuerte, taquilla, candado, edificio,
    buzón, allarme, porta, portone, cancello, cassaforte, armadietto, lucchetto, palazzo, citofono,
    portão, garagem, cofre, cacifo, cadeado, prédio, deur, voordeur, poort, kluis, kluisje, slot,
    fietsslot, hangslot, gebouw
    """
)
# What a password opens: "use hunter4 for the wifi", "the password for the router".
PASSWORD_THINGS = phrases(
    """
    wifi, wi-fi, wlan, router, network, laptop, computer, phone, ipad, email, e-mail, mail, bank,
    card, debit card, bank card, account, login, vpn, nas, sim, cartão, tarjeta, carta, karte,
    carte, kaart
    """
)

# Names that usually mean a secret but also "the key to success" or "the secret of risotto":
# their value must look made up (a digit or a symbol in it).
GUARDED_NAMES = phrases(
    """
    wifi key, wi-fi key, network key, wpa key, wpa2 key, wep key, wlan key, security key,
    product key, license key, licence key, serial key, activation key, recovery key, encryption key,
    master key, secret key, wlan-schlüssel, netzwerkschlüssel, schlüssel, clé wifi, clé wpa,
    clé de sécurité, clé de licence, clé, clave, clave wifi, clave de red, clave de producto,
    chiave, chiave wifi, chiave di rete, chave, chave wifi, chave de rede, wifi-sleutel,
    netwerksleutel, sleutel
    """
)

# Names of the answer to a security question, whatever word it is.
ANSWER_NAMES = phrases(
    """
    security answer, security question answer, security question's answer,
    answer to my security question, answer to the security question,
    answer to her security question, answer to his security question, mother's maiden name,
    mothers maiden name, sicherheitsantwort, antwort auf meine sicherheitsfrage,
    antwort auf die sicherheitsfrage, mädchenname meiner mutter, geburtsname meiner mutter,
    réponse à ma question secrète, réponse à la question secrète, réponse à ma question de sécurité,
    réponse à la question de sécurité, nom de jeune fille de ma mère,
    respuesta a mi pregunta de seguridad, respuesta a la pregunta de seguridad,
    respuesta de seguridad, respuesta secreta, apellido de soltera de mi madre,
    risposta alla domanda di sicurezza, risposta alla mia domanda di sicurezza, risposta segreta,
    cognome da nubile di mia madre, resposta à pergunta de segurança,
    resposta da pergunta de segurança, resposta secreta, nome de solteira da minha mãe,
    antwoord op mijn beveiligingsvraag, antwoord op de beveiligingsvraag,
    meisjesnaam van mijn moeder
    """
)

# Between a name and its value. Spelled as words, these only join when spaced out ("is", not
# the "is" of "island"); the marks join with or without spaces.
JOINING_WORDS = phrases(
    """
    is, was, are, is now, is still, was changed to, is set to, has been changed to, changed to,
    set to, now, ist, war, lautet, lautete, ist jetzt, heißt, est, était, c'est, est maintenant, es,
    era, es ahora, è, e', é, è ora, é agora, is nu, luidt
    """
)
# Where what is being named is said between the name and "is": "password *for the NAS* is",
# "mot de passe *du wifi* est", "código *de la puerta* es".
OF_WORDS = phrases(
    """
    for, of, to, at, on, in, from, für, fürs, au, aux, al, ao, à, vom, von, zum, zur, der, des, du,
    de, pour, del, para, della, dello, delle, degli, dei, di, per, do, da, dos, das, van, voor, bij
    """
)
# Articles and possessives: "is *my* PIN", "ist *mein* Passwort", "est *mon* mot de passe".
# No indefinite ones: "1234 is a terrible PIN" speaks of PINs in general.
THE_WORDS = phrases(
    """
    the, my, our, your, his, her, their, der, die, das, den, dem, mein, meine, meinen, meiner,
    unser, unsere, dein, deine, le, la, les, mon, ma, mes, notre, ton, ta, son, sa, el, mi, mis,
    nuestra, nuestro, tu, su, il, lo, mio, mia, nostro, nostra, la mia, il mio, o, a, meu, minha,
    o meu, a minha, nosso, nossa, het, mijn, ons, onze, jouw
    """
)
# Words before a name that make it any PIN, not this one: "the most common PIN".
GENERAL_WORDS = word_set(
    """
    most least common popular worst best typical weak weakest bad terrible obvious classic
    famous example sample dummy test fake standard usual same new old other another
    """
)
# "use hunter4 for the wifi", "nimm 8842 für die Alarmanlage", "utilise 8842 pour l'alarme".
USE_WORDS = phrases(
    """
    use, try, enter, type, put in, nimm, benutze, verwende, gib, utilise, utilisez, prends, tape,
    tapez, usa, usá, utiliza, use, usa, utilizza, usar, utilize, digite, gebruik
    """
)
USE_AS_WORDS = phrases(
    """
    for, as, on, at, für, als, comme, pour, como, para, come, per, voor
    """
)
# "to disarm the alarm, enter 8842", "punch in 5521 to open the gate".
OPEN_VERBS = phrases(
    """
    disarm, arm, unlock, open, deactivate, turn off, switch off, get in, get into, access,
    entschärfen, öffnen, entsperren, deaktivieren, ausschalten, désactiver, ouvrir, déverrouiller,
    desactivar, abrir, desbloquear, disattivare, aprire, sbloccare, desativar, desbloquear,
    uitschakelen, openen, ontgrendelen
    """
)
KEY_IN_VERBS = phrases(
    """
    enter, type, type in, punch in, key in, tap in, dial, input, press, use, eingeben, tippen,
    tippe, gib, entrez, tapez, tape, composez, compose, introduce, marca, teclea, digita, inserisci,
    digite, insira, voer, toets, typ
    """
)
# "the door opens with 3390", "the alarm disarms with 8842".
OPENS_WITH = phrases(
    """
    opens with, unlocks with, disarms with, is disarmed with, is unlocked with, is opened with,
    öffnet mit, s'ouvre avec, se abre con, si apre con, abre com, opent met
    """
)

# Numbers written out. A digit word stands for one digit, a tens word for two, so "four nine
# two two" and "forty-nine twenty-two" are both four digits.
DIGIT_WORDS = word_set(
    """
    zero oh nought one two three four five six seven eight nine
    null eins zwei drei vier fünf fuenf sechs sieben acht neun
    zéro un deux trois quatre cinq sept huit neuf
    cero uno dos cuatro cinco seis siete ocho nueve
    due tre quattro cinque sei sette otto nove
    um dois duas três tres quatro sete oito
    nul één een twee drie vijf zes zeven negen
    """
)
TENS_WORDS = word_set(
    """
    ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty
    thirty forty fifty sixty seventy eighty ninety hundred
    zehn elf zwölf zwanzig dreißig vierzig fünfzig sechzig siebzig achtzig neunzig
    dix onze douze treize quatorze quinze seize vingt trente quarante cinquante soixante
    diez once doce trece catorce quince veinte treinta cuarenta cincuenta sesenta setenta
    ochenta noventa dieci undici dodici venti trenta quaranta cinquanta sessanta settanta
    ottanta novanta dez doze treze catorze quinze vinte trinta quarenta cinquenta sessenta
    setenta oitenta noventa tien twaalf twintig dertig veertig vijftig zestig zeventig
    tachtig negentig
    """
)
REPEAT_WORDS = word_set("double triple doppel doppio doble duplo dubbel")

# After a number, words that make it a quantity, a time or a price rather than a code.
MEASURE_WORDS = word_set(
    """
    am pm a.m. p.m. h hr hrs hour hours uhr heures heure horas hora ore uur min mins minute
    minutes sec secs second seconds day days week weeks month months year years tage jahre
    jours ans días años giorni anni dias anos dagen jaar
    euro euros eur dollar dollars usd gbp pound pounds cents € $ £ % percent prozent
    km m cm mm kg g mg mb gb tb kb ms px ft feet inch inches meter meters metres miles degrees
    ° character characters chars digit digits letter letters zeichen stellen ziffern
    caractères chiffres caracteres dígitos digitos caratteri cifre tekens cijfers
    times time mal fois veces volte vezes keer people persons users members pages steps
    units items points pts attempts tries versuche tentatives intentos tentativi tentativas
    pogingen st nd rd th
    """
)
# Before a number, words that make it an identifier of something other than a card.
ID_LABELS = word_set(
    """
    order tracking invoice reference ref ticket booking confirmation id ids serial imei isbn
    ean upc sku barcode phone tel telephone fax mobile call meeting commit build version
    record session memory uuid hash digest sha issue pr case account-id customer receipt
    parcel shipment package bestellung rechnung commande facture pedido factura ordine
    fattura encomenda fatura bestelling factuur
    """
)

# Words that follow "the password is" in ordinary talk, in every language above. A value is
# any other word (checked in `credential_phrases.plain_word_is_value`).
NOT_A_VALUE = STOP_WORDS | word_set(
    """
    expired expiring changed reset rotated stored saved kept written wrong correct incorrect
    required needed mandatory optional invalid valid weak strong long short easy hard simple
    new old same different unknown blank empty missing lost forgotten secret private shared
    case-sensitive sensitive hidden visible set unset enabled disabled locked unlocked stuck
    redacted fine good bad safe secure insecure unsafe compromised leaked outdated protected
    encrypted hashed broken working ok okay complicated complex important confidential
    personal temporary permanent default generic common obvious predictable guessable
    memorable unique random printed taped somewhere mine yours known also just actually
    literally basically definitely usually being getting going needed changing available
    useless pointless terrible awful horrible ridiculous annoying impossible different
    ab abgelaufen falsch richtig geändert geaendert neu alt zu sehr lang kurz sicher unsicher
    schwach stark gleich anders erforderlich nötig leer vergessen verloren gespeichert
    gesperrt noch nicht immer auf unter im in an bei hier dort irgendwo geheim ungültig gültig
    der die das den dem des ein eine einen einem einer mein meine dein deine unser sein ihr
    jetzt schon auch nur wie so da mit für von vom zum zur
    le la les l un une des du de pas plus très trop sur sous dans chez avec pour encore
    toujours jamais aussi ici là mon ma mes ton ta son sa expiré expirée changé changée
    faux fausse correct correcte court courte long longue nouveau nouvelle ancien ancienne
    perdu perdue oublié oubliée obligatoire simple facile difficile sécurisé sécurisée
    el los las unos unas del en con por para no muy demasiado más aquí allí mi tu su sobre
    bajo ya todavía siempre nunca también caducado caducada incorrecto incorrecta correcto
    correcta corto corta largo larga nuevo nueva viejo vieja igual distinta distinto
    olvidada olvidado obligatorio obligatoria fácil difícil segura seguro débil
    il lo i gli un una di della dello su sotto non molto troppo più qui lì mio mia tuo tua
    sempre mai anche ancora già scaduta scaduto sbagliata sbagliato giusta giusto corta corto
    lunga lungo nuova nuovo vecchia vecchio uguale diversa diverso dimenticata obbligatoria
    facile difficile sicura sicuro debole
    o os as um uma do da dos das em no na nos nas com não muito demais mais aqui ali meu
    minha teu tua seu sua sempre nunca também ainda já expirou expirada expirado errada
    errado certa certo curta curto longa longo nova novo velha velho igual diferente
    esquecida obrigatória obrigatório fácil difícil segura seguro fraca fraco
    de het een van op onder met voor niet nog al heel erg zeer daar mijn jouw altijd nooit
    ook verlopen veranderd gewijzigd fout juist kort lang nieuw oud hetzelfde anders
    vergeten verplicht makkelijk moeilijk veilig onveilig zwak sterk
    """
)
# Endings of English adjectives and participles: "the password is complicated/guessable".
ORDINARY_ENDINGS = ("ed", "ing", "able", "ible", "ive", "ous", "ful", "less", "ly")
