import { Clock, Cpu, Crown, Globe2, MoonStar, TrendingUp, type LucideIcon } from 'lucide-react';

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { summarizeConditions } from '../segment-rules';
import { SEGMENT_TEMPLATES, type SegmentTemplate } from '../segment-templates';

const TEMPLATE_ICONS: Record<SegmentTemplate['id'], LucideIcon> = {
  'high-engagement': TrendingUp,
  recent: Clock,
  inactive: MoonStar,
  vip: Crown,
  'north-america': Globe2,
  'tech-professionals': Cpu,
};

function ruleSummary(template: SegmentTemplate): string {
  const { operator, rules } = template.segment.conditions;
  return summarizeConditions({ operator, rules: rules.map((rule) => ({ ...rule, value: String(rule.value ?? '') })) });
}

/** The Templates tab: six cards; the whole card is the button that opens the create dialog prefilled. */
export function SegmentTemplatesGrid({ onChoose }: { onChoose: (template: SegmentTemplate) => void }) {
  return (
    <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
      {SEGMENT_TEMPLATES.map((template) => {
        const Icon = TEMPLATE_ICONS[template.id];
        const count = template.segment.conditions.rules.length;
        return (
          <li key={template.id}>
            <Card className="hover:border-primary focus-within:border-primary relative h-full gap-3 transition-colors">
              <CardHeader>
                <span className="bg-primary/10 text-primary mb-2 flex size-10 items-center justify-center rounded-lg">
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <CardTitle>
                  <h3 className="text-base leading-snug">
                    <button
                      type="button"
                      className="text-left outline-none after:absolute after:inset-0 after:rounded-xl focus-visible:after:ring-[3px] focus-visible:after:ring-ring/50"
                      onClick={() => onChoose(template)}
                    >
                      {template.name}
                    </button>
                  </h3>
                </CardTitle>
                <CardDescription>{template.description}</CardDescription>
              </CardHeader>
              <CardContent className="mt-auto space-y-2">
                <p className="text-muted-foreground text-xs break-words">{ruleSummary(template)}</p>
                <p className="text-xs font-medium">
                  {count} {count === 1 ? 'rule' : 'rules'} · Match{' '}
                  {template.segment.conditions.operator === 'AND' ? 'ALL' : 'ANY'}
                </p>
              </CardContent>
            </Card>
          </li>
        );
      })}
    </ul>
  );
}
