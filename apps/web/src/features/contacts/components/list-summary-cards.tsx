import { Newspaper, Plus, ShoppingBag, Star, type LucideIcon } from 'lucide-react';
import type { ContactList } from '@sendwell/contract/contacts';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { toastError } from '@/lib/toast-error';
import { formatNumber } from '@/lib/format';
import { toast } from '@/lib/use-toast';
import { useCreateContactList } from '../api/use-contacts';
import { findListByName } from '../contact-rules';

interface SummaryCardDef {
  name: string;
  icon: LucideIcon;
  tone: string;
}

/** The three list summary cards of spec §2, matched to the user's lists by name. */
const SUMMARY_LISTS: readonly SummaryCardDef[] = [
  {
    name: 'Newsletter Subscribers',
    icon: Newspaper,
    tone: 'bg-blue-100 text-blue-700 dark:bg-blue-950 dark:text-blue-300',
  },
  { name: 'VIP Customers', icon: Star, tone: 'bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-300' },
  {
    name: 'Recent Purchasers',
    icon: ShoppingBag,
    tone: 'bg-emerald-100 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300',
  },
];

/** A card: one of the user's lists, or a spec list the user does not have yet (offered to create). */
type SummaryCard = SummaryCardDef & { list: ContactList | undefined };

/**
 * The three cards: the spec's lists the user has, then the user's own biggest lists whatever they
 * are named (first-hour finding 10: a "Harbour newsletter" list never showed), then spec lists the
 * user does not have, offered to create. A new account sees the three spec cards.
 */
function summaryCards(lists: readonly ContactList[] | undefined): SummaryCard[] {
  const all = lists ?? [];
  const named = SUMMARY_LISTS.flatMap((def) => {
    const list = findListByName(all, def.name);
    return list ? [{ ...def, list }] : [];
  });
  const used = new Set(named.map((card) => card.list.id));
  const own = [...all]
    .filter((list) => !used.has(list.id))
    .sort((a, b) => b.subscriberCount - a.subscriberCount || a.id - b.id);
  const cards: SummaryCard[] = [...named];
  for (const list of own) {
    if (cards.length >= SUMMARY_LISTS.length) break;
    const look = SUMMARY_LISTS[cards.length];
    if (!look) break;
    cards.push({ ...look, name: list.name, list });
  }
  for (const def of SUMMARY_LISTS) {
    if (cards.length >= SUMMARY_LISTS.length) break;
    if (!cards.some((card) => card.name === def.name)) cards.push({ ...def, list: undefined });
  }
  return cards;
}

/**
 * Each card shows the subscriber count of its list. Where the list does not exist it shows '—'
 * (never a made-up number) and offers to create the list.
 */
export function ListSummaryCards({
  lists,
  isLoading,
  onViewList,
}: {
  lists: readonly ContactList[] | undefined;
  isLoading: boolean;
  onViewList: (list: ContactList) => void;
}) {
  const createList = useCreateContactList();

  const onCreate = async (name: string) => {
    try {
      await createList.mutateAsync({ name });
      toast({ title: 'List created', description: `“${name}” is ready for contacts.` });
    } catch (error) {
      toastError(error, 'Failed to create contact list');
    }
  };

  return (
    <div className="grid gap-4 sm:grid-cols-3">
      {summaryCards(lists).map((card) => {
        const { list } = card;
        const Icon = card.icon;
        return (
          <Card key={list ? `list-${list.id}` : card.name} className="gap-2 py-4 sm:gap-3 sm:py-6">
            <CardHeader className="flex flex-row items-center justify-between">
              <CardTitle className="text-muted-foreground text-sm font-medium">
                <h2>{card.name}</h2>
              </CardTitle>
              <span className={`flex size-9 items-center justify-center rounded-lg ${card.tone}`}>
                <Icon className="size-4" aria-hidden="true" />
              </span>
            </CardHeader>
            <CardContent className="flex items-end justify-between gap-2">
              {isLoading || !lists ? (
                <Skeleton className="h-8 w-20" />
              ) : list ? (
                <>
                  <p className="text-2xl font-bold tracking-tight tabular-nums sm:text-3xl">
                    {formatNumber(list.subscriberCount)}
                    <span className="sr-only"> subscribers</span>
                  </p>
                  <Button variant="link" size="sm" className="h-auto px-0" onClick={() => onViewList(list)}>
                    View contacts<span className="sr-only"> in {card.name}</span>
                  </Button>
                </>
              ) : (
                <>
                  <p className="text-muted-foreground text-2xl font-bold sm:text-3xl">
                    <span aria-hidden="true">—</span>
                    <span className="sr-only">No list yet</span>
                  </p>
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={createList.isPending}
                    onClick={() => onCreate(card.name)}
                  >
                    <Plus aria-hidden="true" />
                    Create list<span className="sr-only"> {card.name}</span>
                  </Button>
                </>
              )}
            </CardContent>
          </Card>
        );
      })}
    </div>
  );
}
