import { IconPencil } from '@tabler/icons-react';
import { PagePlaceholder } from '@/components/PagePlaceholder';

export default function ChapterEditorScreen() {
  return (
    <PagePlaceholder
      title="Chapter Editor"
      subtitle="Write without distraction"
      description="The full-page editor with word counts, auto-save and revisions is being built."
      icon={<IconPencil size={30} stroke={1.5} />}
    />
  );
}
