import { Link } from 'wouter';
import { ArrowRight, CheckCircle2, Circle } from 'lucide-react';

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { showSetupChecklist, type SetupStep } from '../getting-started-steps';

/** The dashboard's getting-started card: the steps left for a new account, gone once all are done. */
export function GettingStarted({ steps }: { steps: SetupStep[] }) {
  if (!showSetupChecklist(steps)) return null;
  const done = steps.filter((step) => step.done).length;
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">Get started</h2>
        </CardTitle>
        <CardDescription>
          {done} of {steps.length} done. This list goes away once every step is done.
        </CardDescription>
        <Progress value={(done / steps.length) * 100} aria-label="Setup progress" className="mt-2 h-1.5" />
      </CardHeader>
      <CardContent>
        <ol className="divide-y">
          {steps.map((step) => (
            <li key={step.id} data-step={step.id} className="flex flex-wrap items-center gap-3 py-3 sm:flex-nowrap">
              {step.done ? (
                <CheckCircle2 className="size-5 shrink-0 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
              ) : (
                <Circle className="text-muted-foreground size-5 shrink-0" aria-hidden="true" />
              )}
              <div className="min-w-0 flex-1">
                <p className={step.done ? 'text-muted-foreground font-medium line-through' : 'font-medium'}>
                  {step.title}
                  <span className="sr-only">{step.done ? ' (done)' : ' (to do)'}</span>
                </p>
                {!step.done && <p className="text-muted-foreground text-sm">{step.description}</p>}
              </div>
              {!step.done && (
                <Link
                  href={step.href}
                  className="text-primary inline-flex items-center gap-1 text-sm font-medium whitespace-nowrap hover:underline"
                >
                  {step.action}
                  <ArrowRight className="size-4" aria-hidden="true" />
                </Link>
              )}
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}
