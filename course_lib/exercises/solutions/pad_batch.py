import torch


def my_pad(seqs, pad_id):
    seq = max(len(s) for s in seqs)
    ids = torch.full((len(seqs), seq), pad_id, dtype=torch.long)  # (batch, seq)
    for row, s in enumerate(seqs):
        ids[row, : len(s)] = torch.tensor(s, dtype=torch.long)
    lengths = torch.tensor([len(s) for s in seqs])  # (batch,)
    mask = torch.arange(seq) < lengths.unsqueeze(1)  # (batch, seq)
    return ids, mask
