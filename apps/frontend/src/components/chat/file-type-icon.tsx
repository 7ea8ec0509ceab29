import { File, FileCode, FileImage, FileSpreadsheet, FileText } from 'lucide-react';
import { isImageType } from '@/lib/attachments';

/** The icon of a file of this type, on composer chips and message file cards. */
export function FileTypeIcon({ mediaType, className }: { mediaType: string; className?: string }) {
  const type = mediaType.toLowerCase();
  const Icon = isImageType(type)
    ? FileImage
    : type === 'text/csv'
      ? FileSpreadsheet
      : type === 'application/json'
        ? FileCode
        : type === 'application/pdf' || type.startsWith('text/')
          ? FileText
          : File;
  return <Icon className={className} aria-hidden />;
}
