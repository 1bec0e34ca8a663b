import { Link } from 'wouter';
import { FileQuestion } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';

/** Any unknown path, signed in or not. */
export default function NotFoundPage({ standalone = false }: { standalone?: boolean }) {
  const content = (
    <Card className="mx-auto w-full max-w-md">
      <CardContent className="flex flex-col items-center gap-4 py-10 text-center">
        <FileQuestion className="text-muted-foreground size-10" aria-hidden="true" />
        <h1 className="text-2xl font-bold">404 Page Not Found</h1>
        <p className="text-muted-foreground text-sm">The page you are looking for does not exist or has moved.</p>
        <Button asChild>
          <Link href="/">Go home</Link>
        </Button>
      </CardContent>
    </Card>
  );
  if (!standalone) return <div className="py-10">{content}</div>;
  return <main className="bg-muted/30 flex min-h-dvh items-center justify-center p-4">{content}</main>;
}
