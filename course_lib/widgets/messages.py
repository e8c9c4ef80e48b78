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
        # table.py: rotation_explorer (lesson 5)
        "slider_pos": {"en": "position pos", "ru": "позиция pos"},
        "slider_pair": {"en": "pair i", "ru": "пара i"},
        "rotation_readout": {
            "en": "ω = base^(-2i/d_model) = {omega:.4g}, angle k·ω = {angle:.4f} rad. "
            "Turning the pair of PE[{pos}] by it gives the pair of PE[{pos_k}] "
            "(largest difference {err:.1e}).",
            "ru": "ω = base^(-2i/d_model) = {omega:.4g}, угол k·ω = {angle:.4f} рад. "
            "Поворот пары из PE[{pos}] на этот угол даёт пару из PE[{pos_k}] "
            "(наибольшее расхождение {err:.1e}).",
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
        "sentences_invalid": {
            "en": "sentences must be a non-empty list of non-empty strings, got {value!r}",
            "ru": "sentences должен быть непустым списком непустых строк, а получено {value!r}",
        },
        # attention.py: position_strength_explorer (lesson 4)
        "slider_pe_scale": {"en": "PE scale", "ru": "множитель PE"},
        "strength_title": {
            "en": "input = token embeddings + {scale:.2f} · PE",
            "ru": "вход = эмбеддинги токенов + {scale:.2f} · PE",
        },
        "strength_readout": {
            "en": "Positional encoding added × {scale:.2f}. "
            "Largest difference between the outputs of «{second}» and the reordered outputs of «{first}»: "
            "{gap:.4f}.",
            "ru": "Позиционное кодирование прибавлено с множителем {scale:.2f}. "
            "Наибольшая разность между выходами для «{second}» и переставленными выходами для «{first}»: "
            "{gap:.4f}.",
        },
        "strength_same": {
            "en": "Without positions the outputs are the same vectors in another order: attention cannot see it.",
            "ru": "Без позиций выходы — те же векторы в другом порядке: внимание перестановки не видит.",
        },
        "strength_differ": {
            "en": "The outputs are no longer a reordering of each other: the word order reaches the model.",
            "ru": "Выходы больше не получаются друг из друга перестановкой: порядок слов дошёл до модели.",
        },
        "strength_not_permutation": {
            "en": "the two sentences must have the same tokens in another order, each token once; "
            "got {first!r} and {second!r}",
            "ru": "в двух предложениях должны быть одни и те же токены в разном порядке, каждый по одному разу, "
            "а получено {first!r} и {second!r}",
        },
        # vocab.py: vocab_explorer (lesson 1)
        "vocab_text": {"en": "text", "ru": "текст"},
        "vocab_id": {"en": "ID", "ru": "индекс"},
        "vocab_decoded": {"en": "decodes to", "ru": "после декодирования"},
        "vocab_summary": {
            "en": "{n} tokens; the vocabulary ({size} tokens) does not know {unknown} of them.",
            "ru": "Токенов: {n}, из них словарь ({size} токенов) не знает {unknown}.",
        },
        "vocab_not_vocab": {
            "en": "vocab must be a course_lib.Vocab, e.g. Vocab.build(corpus), got {type_name}",
            "ru": "vocab должен быть объектом course_lib.Vocab, например Vocab.build(corpus), а получен {type_name}",
        },
    },
)
