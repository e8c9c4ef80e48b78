"""The messages of :mod:`course_lib.widgets`: slider descriptions, buttons, readouts and input errors.

One catalogue for the package, grouped by the module that uses each entry. The labels
of the figures inside the widgets come from :data:`course_lib.plots.MESSAGES`.

    >>> MESSAGES("slider_base", "ru")
    'основание base'
"""

from ..i18n import Messages

__all__ = ["MESSAGES"]

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
            "ru": "{slow} из {d_model} столбцов ({percent} %) имеют длину волны больше, чем {num_positions} "
            "показанных позиций: они меняются медленно.",
        },
        # table.py: rotation_explorer (lesson 5)
        "slider_pos": {"en": "position pos", "ru": "позиция pos"},
        "slider_pair": {"en": "pair i", "ru": "пара i"},
        "rotation_readout": {
            "en": "ω = base^(-2i/d_model) = {omega}, angle k·ω = {angle} rad. "
            "Turning the pair of PE[{pos}] by it gives the pair of PE[{pos_k}] "
            "(largest difference {err}).",
            "ru": "ω = base^(-2i/d_model) = {omega}, угол k·ω = {angle} рад. "
            "Поворот пары из PE[{pos}] на этот угол даёт пару из PE[{pos_k}] "
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
            "ru": "sentence должен быть номером предложения, целым числом от 0 до {last} (предложений: {count}), а получено {value!r}",
        },
        "sentences_invalid": {
            "en": "sentences must be a non-empty list of non-empty strings, got {value!r}",
            "ru": "sentences должен быть непустым списком непустых строк, а получено {value!r}",
        },
        # attention.py: balance_explorer (lesson 4)
        "slider_token_scale": {"en": "token scale c", "ru": "множитель токенов c"},
        "balance_title": {
            "en": "input = {scale} · token vectors + PE",
            "ru": "вход = {scale} · векторы токенов + PE",
        },
        "balance_rms": {
            "en": "c = {scale}. RMS of the token vectors × c: {tokens}, of PE: {positions} (ratio {ratio}).",
            "ru": "c = {scale}. RMS векторов токенов × c: {tokens}, PE: {positions} (отношение {ratio}).",
        },
        "balance_effects": {
            "en": "Attention weight that moves — effect of the positions: {positions} "
            "(0: attention sees only the words); effect of the words: {words} "
            "(0: it sees only the positions).",
            "ru": "Доля сдвинутого веса внимания — влияние позиций: {positions} "
            "(0: внимание видит только слова); влияние слов: {words} "
            "(0: оно видит только позиции).",
        },
        "balance_fixed": {
            "en": "{name} is fixed when the explorer is built (the weights are computed for it): "
            "call balance_explorer again for other sentences, got {value!r}",
            "ru": "{name} задаётся при создании графика (веса посчитаны для него): "
            "для других предложений вызовите balance_explorer снова, а получено {value!r}",
        },
        "balance_slider_range": {
            "en": "scale must be a number from 0.01 to 100, the slider's range, got {value!r}",
            "ru": "scale должен быть числом от 0,01 до 100 (диапазон слайдера), а получено {value!r}",
        },
    },
)
