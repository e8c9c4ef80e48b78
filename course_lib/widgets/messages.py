"""The messages of :mod:`course_lib.widgets`: slider descriptions, buttons, readouts and input errors.

``LIVE`` holds what every explorer shares (a setting out of its range, a saved value replaced);
``MESSAGES`` holds the texts of the explorers of lessons 3–5 (``table``, ``embeddings``,
``attention``), grouped by the module that uses each entry; the explorers of lessons 1, 2, 6, 7
and 8 each have their own catalogue below (``VOCAB`` … ``ROTARY``), imported by their module as
``MESSAGES``. The labels of the figures inside the widgets come from :mod:`course_lib.plots.messages`.

    >>> MESSAGES("slider_base", "ru")
    'основание base'
"""

from ..i18n import Messages

__all__ = [
    "LIVE",
    "MESSAGES",
    "VOCAB",
    "TOKENS",
    "COMPARATOR",
    "POSITIONS",
    "EXTRAPOLATION",
    "ROTARY",
    "SCALING",
]

# live.py: every explorer's settings (Checked) and what the browser writes when it clamped a saved value
LIVE = Messages(
    "widgets_live",
    {
        "int_range": {
            "en": "{name} must be an integer from {low} to {high} (the explorer's range), got {value!r}",
            "ru": "{name}: нужно целое число от {low} до {high} (диапазон виджета), а получено {value!r}",
        },
        "number_range": {
            "en": "{name} must be a number from {low} to {high} (the explorer's range), got {value!r}",
            "ru": "{name}: нужно число от {low} до {high} (диапазон виджета), а получено {value!r}",
        },
        "text_too_long": {
            "en": "{name} must be at most {longest} characters long (the explorer's limit), got {length}",
            "ru": "{name}: нужно не больше {longest} символов (предел виджета), а получено {length}",
        },
        # written by the browser (js/common.js, guard) when a saved notebook held a value outside the bounds
        "clamped": {
            "en": "The saved notebook held values this explorer cannot show; it shows these instead: {changes}.",
            "ru": "В сохранённом ноутбуке были значения, которые виджет не может показать; вместо них "
            "показаны такие: {changes}.",
        },
        # under an explorer in a notebook whose kernel is not connected (js/common.js, kernelStatus), in
        # place of JupyterLab's unexplained red "disconnected" icon
        "no_kernel": {
            "en": "Live in the page; run the lesson's cells to connect it to Python.",
            "ru": "Работает прямо на странице; чтобы связать с Python, выполните ячейки урока.",
        },
    },
)

MESSAGES = Messages(
    "widgets",
    {
        # table.py: table_explorer (lesson 5)
        "slider_positions": {"en": "positions", "ru": "позиции"},
        "slider_base": {"en": "base", "ru": "основание base"},
        "table_readout": {
            "en": "d_model = {d_model}, {num_positions} positions, base = {base}. "
            "Wavelength, in positions: from {shortest} (i = 0) to {longest} (i = {last_i}).",
            "ru": "d_model = {d_model}, позиций: {num_positions}, основание base = {base}. "
            "Длина волны в позициях: от {shortest} (i = 0) до {longest} (i = {last_i}).",
        },
        "table_slow": {
            "en": "{slow} of {d_model} columns ({percent}%) have a wavelength longer than the "
            "{num_positions} positions shown: they change slowly.",
            "ru": "У {slow} из {d_model} столбцов ({percent} %) длина волны больше, чем {num_positions} "
            "показанных позиций: они меняются медленно.",
        },
        # table.py: rotation_explorer (lesson 5)
        "slider_pos": {"en": "position pos", "ru": "позиция pos"},
        "slider_pair": {"en": "pair i", "ru": "пара i"},
        "rotation_readout": {
            "en": "ω = base^(-2i/d_model) = {omega}, angle k·ω = {angle} rad. "
            "Turning the pair of P[{pos}] by it gives the pair of P[{pos_k}] "
            "(largest difference {err}).",
            "ru": "ω = base^(−2i/d_model) = {omega}, угол k·ω = {angle}\u00a0рад. "
            "Поворот пары из P[{pos}] на этот угол даёт пару из P[{pos_k}] "
            "(наибольшее расхождение {err}).",
        },
        # embeddings.py: embedding_explorer (lesson 3)
        "sentence": {"en": "sentence", "ru": "предложение"},
        "show": {"en": "show", "ru": "показать"},
        "show_tokens": {"en": "token embeddings", "ru": "эмбеддинги токенов"},
        "show_sum": {"en": "+ positional encoding", "ru": "+ позиционное кодирование"},
        "explorer_tokens_title": {
            "en": "Token embeddings × √d_model",
            "ru": "Эмбеддинги токенов × √d_model",
        },
        "explorer_sum_title": {
            "en": "Token embeddings × √d_model + positional encoding",
            "ru": "Эмбеддинги токенов × √d_model + позиционное кодирование",
        },
        "embedding_readout": {
            "en": "{seq} tokens, d_model = {d_model}. RMS of the values shown: {rms}.",
            "ru": "Токенов: {seq}, d_model = {d_model}. RMS показанных значений: {rms}.",
        },
        "embedding_repeat": {
            "en": '"{token}" at positions {first} and {second}: its two rows differ by at most {diff}.',
            "ru": "«{token}» на позициях {first} и {second}: две его строки различаются не больше чем на {diff}.",
        },
        "embedding_no_repeat": {
            "en": "No token comes twice in this sentence.",
            "ru": "Ни один токен не встречается в этом предложении дважды.",
        },
        "sentence_range": {
            "en": "sentence must be the index of a sentence, an integer from 0 to {last} ({count} sentences), got {value!r}",
            "ru": "аргумент `sentence` должен быть номером предложения, целым числом от 0 до {last} (предложений: {count}), а получено {value!r}",
        },
        "sentences_invalid": {
            "en": "sentences must be a non-empty list of non-empty strings, got {value!r}",
            "ru": "аргумент `sentences` должен быть непустым списком непустых строк, а получено {value!r}",
        },
        # attention.py: balance_explorer (lesson 4)
        "slider_token_scale": {"en": "token scale c", "ru": "множитель токенов c"},
        "balance_title": {
            "en": "input = {scale} · token vectors + P",
            "ru": "вход = {scale} · векторы токенов + P",
        },
        "balance_rms": {
            "en": "c = {scale}. RMS of the token vectors × c: {tokens}, of P: {positions} (ratio {ratio}).",
            "ru": "c = {scale}. RMS векторов токенов × c: {tokens}, RMS таблицы P: {positions} (отношение {ratio}).",
        },
        "balance_effects": {
            "en": "Attention weight that moves — effect of the positions: {positions} "
            "(0: attention sees only the words); effect of the words: {words} "
            "(0: it sees only the positions).",
            "ru": "Доля веса внимания, которая сдвигается, — влияние позиций: {positions} "
            "(0: внимание видит только слова); влияние слов: {words} "
            "(0: оно видит только позиции).",
        },
        "balance_fixed": {
            "en": "{name} is fixed when the explorer is built (the weights are computed for it): "
            "call balance_explorer again for other sentences, got {value!r}",
            "ru": "аргумент `{name}` задаётся при создании виджета (веса посчитаны для него): "
            "для других предложений снова вызовите balance_explorer, а получено {value!r}",
        },
        "balance_slider_range": {
            "en": "scale must be a number from 0.01 to 100, the slider's range, got {value!r}",
            "ru": "аргумент `scale` должен быть числом от 0,01 до 100 (диапазон слайдера), а получено {value!r}",
        },
    },
)


# vocab.py: vocab_explorer (lesson 1)
VOCAB = Messages(
    "widgets_vocab",
    {
        "text": {"en": "text", "ru": "текст"},
        "min_freq": {"en": "min_freq", "ru": "минимальная частота min_freq"},
        "readout": {
            "en": "Vocabulary with min_freq = {min_freq}: {size} tokens. "
            "The held-out text: {unknown} of its {n} tokens are <unk>, {share} %.",
            "ru": "Словарь при min_freq = {min_freq}, токенов в нём: {size}. "
            "Отложенный текст: токенов {n}, из них <unk> — {unknown}, {share} %.",
        },
        "plot_title": {
            "en": "The smaller the vocabulary, the more of the held-out text becomes <unk>",
            "ru": "Чем меньше словарь, тем больше отложенного текста становится <unk>",
        },
        "plot_size": {"en": "vocabulary size", "ru": "размер словаря"},
        "plot_share": {"en": "<unk> share, %", "ru": "доля <unk>, %"},
        "plot_no_heldout": {
            "en": "The vocabulary's size for each min_freq",
            "ru": "Размер словаря при каждом min_freq",
        },
        "not_texts": {
            "en": "heldout must be a list of strings, got {type_name}",
            "ru": "аргумент `heldout` должен быть списком строк, а получен {type_name}",
        },
    },
)


# tokens.py: token_explorer (lesson 2)
TOKENS = Messages(
    "widgets_tokens",
    {
        "text": {"en": "text", "ru": "текст"},
        "readout": {
            "en": "{n_tokens} tokens for {n_words} words: {per_word} tokens per word. "
            "The text has {n_chars} characters, {n_bytes} bytes in UTF-8.",
            "ru": "Токенов: {n_tokens}, слов: {n_words}, токенов на слово: {per_word}. "
            "Символов в тексте: {n_chars}, байтов в UTF-8: {n_bytes}.",
        },
        "bad_sizes": {
            "en": "sizes must be a non-empty list of vocabulary sizes, got {value!r}",
            "ru": "аргумент `sizes` должен быть непустым списком размеров словаря, а получено {value!r}",
        },
        "not_a_size": {
            "en": "size must be one of the sizes of the slider, {sizes}, got {value!r}",
            "ru": "аргумент `size` должен быть одним из размеров на слайдере, {sizes}, а получено {value!r}",
        },
    },
)


# comparator.py: tokenizer_comparator (lesson 2)
COMPARATOR = Messages(
    "widgets_comparator",
    {
        "text": {"en": "text", "ru": "текст"},
        "english": {"en": "the same in English", "ru": "то же по-английски"},
        "course": {"en": "the course's BPE ({size} tokens)", "ru": "BPE курса ({size} токенов)"},
        "readout": {
            "en": "The text: {n_words} words, {n_chars} characters; in English: {n_english} words.",
            "ru": "Текст: слов — {n_words}, символов — {n_chars}; по-английски: слов — {n_english}.",
        },
        "row": {
            "en": "{name}: {n_tokens} tokens, {per_word} per word, ×{ratio} its tokens for the English",
            "ru": "{name}: токенов — {n_tokens}, на слово — {per_word}, ×{ratio} к его токенам английского текста",
        },
        "loading": {"en": "loading its vocabulary…", "ru": "загружается словарь…"},
        "unavailable": {
            "en": "not in this copy of the course: gpt-tokenizer's files come with `make` (npm ci)",
            "ru": "нет в этой копии курса: файлы gpt-tokenizer устанавливает `make` (npm ci)",
        },
        "no_kernel_data": {
            "en": "its vocabulary comes from the kernel: run this cell",
            "ru": "словарь передаёт ядро Jupyter: запустите эту ячейку",
        },
        "hint": {
            "en": "A number under a token is its id. Click a token of the course's BPE to see the merges that built it.",
            "ru": "Число под токеном — его индекс. Щёлкните по токену BPE курса, чтобы увидеть слияния, из которых он собран.",
        },
        "tree": {
            "en": "How «{token}» (id {id}) was built, merge by merge, down to its bytes:",
            "ru": "Как собран токен «{token}» (индекс {id}): слияние за слиянием, вплоть до байтов:",
        },
        "merge": {"en": "{token} (id {id}) = merge of", "ru": "{token} (индекс {id}) — слияние"},
        "byte": {"en": "{token} (id {id}): byte {hex}", "ru": "{token} (индекс {id}): байт {hex}"},
    },
)


# positions.py: left_padding_explorer (lesson 6)
POSITIONS = Messages(
    "widgets_positions",
    {
        "padding": {"en": "padding on the left", "ru": "паддинг слева"},
        "positions": {"en": "positions", "ru": "позиции"},
        "default": {"en": "0 .. seq-1", "ru": "0 .. seq-1"},
        "mask": {"en": "from the mask", "ru": "из маски"},
        "readout": {
            "en": "{padding} × <pad>, then the text at positions {positions}: {verdict}.",
            "ru": "{padding} × <pad>, затем текст на позициях {positions}: {verdict}.",
        },
        "padding_range": {
            "en": "padding must be an integer from 0 to max_padding = {max_padding}, got {value!r}",
            "ru": "аргумент `padding` должен быть целым числом от 0 до max_padding = {max_padding}, а получено {value!r}",
        },
    },
)


# extrapolation.py: extrapolation_explorer (lesson 7)
EXTRAPOLATION = Messages(
    "extrapolation_widget",
    {
        "slider_length": {"en": "length", "ru": "длина"},
        "title": {
            "en": "Accuracy at each position of sequences of {n} tokens\n"
            "dashed: the accuracy over the whole sequence",
            "ru": "Точность на каждой позиции последовательностей из {n} токенов\n"
            "пунктир — точность по всей последовательности",
        },
        "readout": {
            "en": "{variant}: {total} % right at length {n}; {seen} % on positions below {train_len}; "
            "beyond: {unseen}",
            "ru": "{variant}: на длине {n} верных ответов {total}\u00a0%; на позициях меньше {train_len} — "
            "{seen}\u00a0%; дальше — {unseen}",
        },
        # the share beyond the training length, with the percent sign as the language writes it
        "unseen_share": {"en": "{share} %", "ru": "{share}\u00a0%"},
        "no_unseen": {"en": "no positions", "ru": "позиций нет"},
        "no_target": {"en": "–", "ru": "–"},
        "variants": {"en": "variants shown", "ru": "показанные варианты"},
        "not_causal": {
            "en": "the explorer reads shorter sequences as the first tokens of the longest ones, which "
            "holds for a causal model only: run the experiment with Config(causal=True)",
            "ru": "виджет считает короткие последовательности началами самых длинных, а это верно "
            "только для каузальной модели: запустите эксперимент с Config(causal=True)",
        },
        "length_range": {
            "en": "length must be an integer in 2 .. {test_len} (the test length), got {value!r}",
            "ru": "аргумент `length` должен быть целым числом от 2 до {test_len} (длина тестовых последовательностей), "
            "а получено {value!r}",
        },
    },
)


# rotary.py: rope_explorer, alibi_explorer, rope_angles_explorer (lesson 8)
ROTARY = Messages(
    "widgets_rotary",
    {
        # rope_explorer
        "slider_m": {"en": "query position m", "ru": "позиция запроса m"},
        "slider_n": {"en": "key position n", "ru": "позиция ключа n"},
        "slider_pair": {"en": "pair i", "ru": "пара i"},
        "together": {"en": "move m and n together", "ru": "двигать m и n вместе"},
        "rope_readout": {
            "en": "m − n = {offset}, q_m · k_n = {score}. Shifting both positions by the same amount, keeping "
            "them in 0 … {last}, gives the same score: {shifts} shifts checked, largest difference {err}.",
            "ru": "m − n = {offset}, q_m · k_n = {score}. Сдвиг обеих позиций на одну и ту же величину, при котором "
            "они остаются в 0 … {last}, даёт ту же оценку (проверено сдвигов: {shifts}, "
            "наибольшее расхождение {err}).",
        },
        # alibi_explorer
        "slider_heads": {"en": "number of heads", "ru": "число голов"},
        "slider_head": {"en": "head h", "ru": "голова h"},
        "alibi_power": {
            "en": "{heads} heads: the slopes are 2^(−8h/{heads}) for h = 1 … {heads}, a geometric sequence.",
            "ru": "Голов: {heads}; наклоны равны 2^(−8h/{heads}) при h = 1 … {heads}, это геометрическая "
            "прогрессия.",
        },
        "alibi_other": {
            "en": "{heads} heads is not a power of two: heads 1 … {closest} take the slopes of {closest} "
            "heads, heads {next} … {heads} every other slope of {double} heads (the 1st, 3rd, …).",
            "ru": "Число голов {heads} — не степень двойки: головы 1 … {closest} берут наклоны для "
            "{closest} голов, а головы {next} … {heads} — каждый второй наклон для {double} голов (1-й, "
            "3-й, …).",
        },
        "alibi_one": {
            "en": "1 head: its slope is 2^(−8).",
            "ru": "Одна голова: её наклон равен 2^(−8).",
        },
        "alibi_readout": {
            "en": "Head {head}: s_h = {slope} = {value}. With equal content scores the last query gives "
            "half of its attention to the nearest {half} of {seq} keys.",
            "ru": "Голова {head}: s_h = {slope} = {value}. При равных оценках по содержанию последний "
            "запрос отдаёт половину внимания ближайшим {half} из {seq} ключей.",
        },
        # rope_angles_explorer
        "slider_base": {"en": "base", "ru": "основание base"},
        "slider_scale": {"en": "interpolation κ", "ru": "интерполяция κ"},
        "angles_readout": {
            "en": "Trained on positions 0 … {last_train} with base = 10 000. Now positions 0 … {last} are "
            "divided by κ = {scale} and turned with base = {base}: {new} of {pairs} pairs reach angles "
            "they never saw in training (▼). The slowest pair turns by {slow_now} rad in all (in "
            "training: {slow_train} rad).",
            "ru": "Обучение: позиции 0 … {last_train}, основание base = 10 000. Сейчас позиции 0 … {last} "
            "делятся на κ = {scale}, а углы считаются с основанием base = {base}: пар с углами, которых "
            "не было при обучении: {new} из {pairs} (▼). Самая медленная пара поворачивается в сумме "
            "на {slow_now} рад (при обучении — на {slow_train} рад).",
        },
    },
)

# scaling.py: rope_scaling_explorer (lesson 9)
SCALING = Messages(
    "widgets_scaling",
    {
        # rope_scaling_explorer (lesson 9)
        "preset": {"en": "a published config", "ru": "конфигурация модели"},
        "method": {"en": "method", "ru": "метод"},
        "method_none": {"en": "no scaling", "ru": "без масштабирования"},
        "method_linear": {"en": "position interpolation", "ru": "интерполяция позиций"},
        "method_dynamic": {"en": "NTK-aware (dynamic)", "ru": "NTK-aware (dynamic)"},
        "method_yarn": {"en": "YaRN", "ru": "YaRN"},
        "method_llama3": {"en": "Llama 3", "ru": "Llama 3"},
        "slider_base": {"en": "base", "ru": "основание base"},
        "slider_factor": {"en": "factor κ", "ru": "множитель κ"},
        "slider_original": {"en": "training length L", "ru": "обучающая длина L"},
        "slider_context": {"en": "context C", "ru": "контекст C"},
        "slider_low": {"en": "low_freq_factor (Llama 3)", "ru": "low_freq_factor (Llama 3)"},
        "slider_high": {"en": "high_freq_factor (Llama 3)", "ru": "high_freq_factor (Llama 3)"},
        "readout": {
            "en": "{method}, base = {base}, κ = {factor}, L = {original}, C = {context}: of {pairs} pairs, {kept} keep their "
            "frequency, {divided} turn κ times slower, {between} in between.{attention}{llama3} Pairs that meet angles "
            "never seen in training within C positions (▼): {unseen} (without scaling: {unseen_before}).",
            "ru": "{method}, основание base = {base}, κ = {factor}, L = {original}, C = {context}. Из {pairs} пар: "
            "частота без изменений — {kept}, в κ раз меньше — {divided}, в промежутке — {between}.{attention}{llama3} "
            "Пар, которые за C позиций встречают углы, которых не было при обучении (▼): {unseen} "
            "(без масштабирования: {unseen_before}).",
        },
        "attention": {
            "en": " YaRN multiplies cos and sin by {value}.",
            "ru": " YaRN умножает cos и sin на {value}.",
        },
        "llama3": {
            "en": " Pairs with wavelengths below L / high_freq_factor = {short} positions keep their frequency, "
            "those above L / low_freq_factor = {long} turn κ times slower.",
            "ru": " Пары с длиной волны меньше L / high_freq_factor = {short} позиций сохраняют частоту, "
            "а пары с длиной волны больше L / low_freq_factor = {long} поворачиваются в κ раз медленнее.",
        },
        "title": {
            "en": "Turns of each pair within C = {context} positions: {method}",
            "ru": "Обороты каждой пары за C позиций, C = {context}: {method}",
        },
        "xlabel": {"en": "pair i", "ru": "пара i"},
        "ylabel": {"en": "turns within C, C·ω_i / 2π", "ru": "обороты за C позиций, C·ω_i / 2π"},
        "ylabel_right": {"en": "frequency ω_i, rad per position", "ru": "частота ω_i, рад на позицию"},
        "before": {"en": "before scaling", "ru": "до масштабирования"},
        "after": {"en": "after scaling", "ru": "после масштабирования"},
        "trained": {"en": "in training: L·ω_i / 2π", "ru": "при обучении: L·ω_i / 2π"},
    },
)
